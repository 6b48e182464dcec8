-- Per file, for one session date: every dated table result read is validated or rejected.
WITH raw AS (
    SELECT file, count(*) AS rows_read FROM raw_results
    WHERE session_date = $session_date GROUP BY file
), ok AS (
    SELECT file, count(*) AS rows_accepted FROM validated_results
    WHERE session_date = $session_date GROUP BY file
), bad AS (
    SELECT file, count(DISTINCT location) AS rows_rejected FROM rejected_inputs
    WHERE stage = 'validate' AND session_date = $session_date GROUP BY file
)
SELECT raw.file, rows_read,
       coalesce(rows_accepted, 0) AS rows_accepted,
       coalesce(rows_rejected, 0) AS rows_rejected,
       rows_read = coalesce(rows_accepted, 0) + coalesce(rows_rejected, 0) AS balanced
FROM raw LEFT JOIN ok USING (file) LEFT JOIN bad USING (file)
ORDER BY raw.file;
