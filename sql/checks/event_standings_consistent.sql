-- The event standings of the events with a session on one of the given dates that do not add
-- up from the events' newest session standings: a contestant's event boards differ from the
-- sum of its sessions' boards, or the event's date is not its last session's. Two versions of
-- an event's standings disagree this way when two runs ranked the event at once, each without
-- the other's date. Each is reported on the dates of the event among the given ones.
WITH dated AS (
    SELECT DISTINCT event_id, session_date FROM standings
    WHERE scope = 'session' AND session_date IN (SELECT UNNEST($dates::DATE[]))
), sessions AS (
    SELECT event_id, section, contestant, direction, sum(boards) AS boards,
           max(session_date) AS last_date
    FROM standings
    WHERE scope = 'session' AND status <> 'superseded'
      AND event_id IN (SELECT event_id FROM dated)
    GROUP BY event_id, section, contestant, direction
), events AS (
    SELECT event_id, section, contestant, direction, boards, session_date
    FROM standings
    WHERE scope = 'event' AND status <> 'superseded' AND event_id IN (SELECT event_id FROM dated)
)
SELECT strftime(d.session_date, '%Y-%m-%d') AS session_date, e.event_id, e.section,
       e.contestant, e.direction, e.boards AS event_boards, s.boards AS session_boards,
       strftime(e.session_date, '%Y-%m-%d') AS event_date,
       strftime(s.last_date, '%Y-%m-%d') AS last_session_date
FROM events AS e
JOIN dated AS d ON d.event_id = e.event_id
LEFT JOIN sessions AS s
    ON s.event_id = e.event_id AND s.section = e.section AND s.contestant = e.contestant
    AND s.direction IS NOT DISTINCT FROM e.direction
WHERE s.boards IS NULL OR e.boards <> s.boards OR e.session_date <> s.last_date
ORDER BY d.session_date, e.event_id, e.section, e.contestant, e.direction;
