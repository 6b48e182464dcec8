-- Cleaned rulings of the given session dates (times as ISO text for the engine).
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date,
                  strftime(called_at, '%Y-%m-%d %H:%M:%S') AS called_at,
                  strftime(ruled_at, '%Y-%m-%d %H:%M:%S') AS ruled_at)
FROM rulings WHERE session_date IN (SELECT UNNEST($dates::DATE[])) ORDER BY ruling_id;
