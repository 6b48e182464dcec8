-- Every session date the inbox's results belong to.
SELECT DISTINCT strftime(d, '%Y-%m-%d') AS session_date
FROM (SELECT UNNEST(dates) AS d FROM source_files)
ORDER BY session_date;
