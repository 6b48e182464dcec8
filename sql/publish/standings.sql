-- The newest version of every standing (session and event scope); names, never player ids.
SELECT *
FROM standings
WHERE status <> 'superseded'
ORDER BY event_id, scope, session, section, direction, rank NULLS LAST, contestant;
