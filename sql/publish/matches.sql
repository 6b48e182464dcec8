-- Team matches (IMP forms), when the warehouse has them: one row per match of the given
-- events.
SELECT * FROM matches WHERE event_id IN (SELECT UNNEST($events::VARCHAR[])) ORDER BY ALL;
