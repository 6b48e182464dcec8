-- Team matches (IMP forms), when the warehouse has them: one row per match.
SELECT * FROM matches ORDER BY ALL;
