-- Per file, for one session date: every ruling and appeal read is accepted or rejected.
WITH raw AS (
    SELECT file, count(*) AS rows_read FROM (
        SELECT file FROM raw_rulings WHERE session_date = $session_date
        UNION ALL SELECT file FROM raw_appeals WHERE session_date = $session_date
    ) GROUP BY file
), ok AS (
    SELECT file, count(*) AS rows_accepted FROM (
        SELECT file FROM rulings WHERE session_date = $session_date
        UNION ALL SELECT file FROM appeals WHERE session_date = $session_date
    ) GROUP BY file
), bad AS (
    SELECT file, count(DISTINCT location) AS rows_rejected FROM rejected_inputs
    WHERE stage = 'rulings' AND session_date = $session_date GROUP BY file
)
SELECT raw.file, rows_read,
       coalesce(rows_accepted, 0) AS rows_accepted,
       coalesce(rows_rejected, 0) AS rows_rejected,
       rows_read = coalesce(rows_accepted, 0) + coalesce(rows_rejected, 0) AS balanced
FROM raw LEFT JOIN ok USING (file) LEFT JOIN bad USING (file)
ORDER BY raw.file;
