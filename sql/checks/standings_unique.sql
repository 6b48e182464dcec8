-- Each contestant once in each version of each standings: a second row for the same event,
-- session, section, contestant and direction would show one pair twice, with two places. The
-- session standings of the given dates and the event standings of the events with a session
-- on one of them (each reported on the event's first date among the given ones).
WITH dated AS (
    SELECT event_id, min(session_date) AS session_date FROM standings
    WHERE scope = 'session' AND session_date IN (SELECT UNNEST($dates::DATE[]))
    GROUP BY event_id
)
SELECT strftime(d.session_date, '%Y-%m-%d') AS session_date, s.event_id, s.scope, s.session,
       s.section, s.contestant, s.direction, s.version, count(*) AS "rows"
FROM standings AS s
JOIN dated AS d ON d.event_id = s.event_id
WHERE s.scope = 'event' OR s.session_date IN (SELECT UNNEST($dates::DATE[]))
GROUP BY d.session_date, s.event_id, s.scope, s.session, s.section, s.contestant, s.direction,
         s.version
HAVING count(*) > 1
ORDER BY 1, s.event_id, s.scope, s.session, s.section, s.contestant, s.direction, s.version;
