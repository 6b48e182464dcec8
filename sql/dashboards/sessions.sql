-- View dashboards.sessions (the public dashboards' role): every event session with official
-- standings, its details and its newest version's status (provisional | final).
WITH newest AS (
    SELECT event_id, session, max(version) AS version, min(status) AS status,
           min(session_date) AS session_date
    FROM standings
    WHERE scope = 'session' AND status NOT IN ('superseded', 'held')
    GROUP BY event_id, session
)
SELECT
    n.event_id, n.session, coalesce(e.date, n.session_date) AS session_date, e.name, e.club,
    e.level, e.form, e.scoring, e.movement, e.profile, e.laws, n.version, n.status
FROM newest AS n
LEFT JOIN events AS e ON e.event_id = n.event_id AND e.session = n.session
