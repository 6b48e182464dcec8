-- The newest version of every standing (session and event scope); names, never player ids.
SELECT *
FROM standings
WHERE status NOT IN ('superseded', 'held')  -- held: reconciliation.on_difference
ORDER BY event_id, scope, session, section, direction, rank NULLS LAST, contestant;
