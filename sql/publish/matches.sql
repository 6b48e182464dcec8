-- Team matches (IMP forms), when the warehouse has them: one row per match (of the events
-- whose pages are made again: not those kept as they are).
SELECT * FROM matches WHERE event_id NOT IN (SELECT UNNEST($skip::VARCHAR[])) ORDER BY ALL;
