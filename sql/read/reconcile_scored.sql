-- Every scored result carrying the exporting program's figures (the newest scores).
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date)
FROM scored_results
WHERE source_ns_mp IS NOT NULL OR source_ew_mp IS NOT NULL
   OR file IN (SELECT DISTINCT file FROM source_standings)
ORDER BY file, rowid;
