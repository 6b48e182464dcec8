-- The rows of `scored_results` of the given session dates, in the order they were written.
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date)
FROM scored_results WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
ORDER BY session_date, file, rowid;
