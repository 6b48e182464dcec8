-- Every event session with official standings: its details (player ids are never selected),
-- the newest version of its standings and that version's status (provisional | final).
SELECT
    e.* EXCLUDE (date, file, location),
    strftime(e.date, '%Y-%m-%d') AS date,
    s.version,
    s.status
FROM events AS e
JOIN (
    SELECT event_id, session, max(version) AS version, min(status) AS status
    FROM standings
    WHERE scope = 'session' AND status <> 'superseded'
    GROUP BY ALL
) AS s USING (event_id, session)
ORDER BY date, e.event_id, e.session;
