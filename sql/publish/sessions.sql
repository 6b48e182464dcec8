-- Every event session with official standings: its details (events.csv or the file's header;
-- an event listed nowhere takes the defaults), the newest version of its standings and that
-- version's status (provisional | final). Player ids are never selected.
WITH newest AS (
    SELECT event_id, session, max(version) AS version, min(status) AS status,
           min(session_date) AS session_date, min(movement) AS st_movement,
           min(profile) AS st_profile
    FROM standings
    WHERE scope = 'session' AND status NOT IN ('superseded', 'held')
    GROUP BY ALL
)
SELECT
    e.* EXCLUDE (event_id, session, date, movement, profile, form, scoring, file, location),
    n.event_id,
    n.session,
    coalesce(e.form, 'pairs') AS form,
    coalesce(e.scoring, 'matchpoints') AS scoring,
    coalesce(e.movement, n.st_movement, 'howell') AS movement,
    coalesce(e.profile, n.st_profile, 'wbf') AS profile,
    strftime(coalesce(e.date, n.session_date), '%Y-%m-%d') AS date,
    n.version,
    n.status
FROM newest AS n
LEFT JOIN events AS e USING (event_id, session)
ORDER BY date, n.event_id, n.session;
