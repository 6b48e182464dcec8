-- The newest standings (session and event scope) of the events of files with official figures.
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date)
FROM standings
WHERE status <> 'superseded'
ORDER BY event_id, scope, session, section, contestant;
