-- Cleaned appeals of the given session dates.
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date,
                  strftime(lodged_at, '%Y-%m-%d %H:%M:%S') AS lodged_at,
                  strftime(decided_at, '%Y-%m-%d %H:%M:%S') AS decided_at)
FROM appeals WHERE session_date IN (SELECT UNNEST($dates::DATE[])) ORDER BY appeal_id;
