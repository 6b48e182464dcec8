-- Per session date and file: every ruling and appeal read is accepted or rejected.
WITH raw AS (
    SELECT session_date, file, count(*) AS rows_read FROM (
        SELECT session_date, file FROM raw_rulings
        WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
        UNION ALL SELECT session_date, file FROM raw_appeals
        WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
    ) GROUP BY session_date, file
), ok AS (
    SELECT session_date, file, count(*) AS rows_accepted FROM (
        SELECT session_date, file FROM rulings
        WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
        UNION ALL SELECT session_date, file FROM appeals
        WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
    ) GROUP BY session_date, file
), bad AS (
    SELECT session_date, file, count(DISTINCT location) AS rows_rejected FROM rejected_inputs
    WHERE stage = 'rulings' AND session_date IN (SELECT UNNEST($dates::DATE[]))
    GROUP BY session_date, file
)
SELECT strftime(raw.session_date, '%Y-%m-%d') AS session_date, raw.file, rows_read,
       coalesce(rows_accepted, 0) AS rows_accepted,
       coalesce(rows_rejected, 0) AS rows_rejected,
       rows_read = coalesce(rows_accepted, 0) + coalesce(rows_rejected, 0) AS balanced
FROM raw LEFT JOIN ok USING (session_date, file) LEFT JOIN bad USING (session_date, file)
ORDER BY raw.session_date, raw.file;
