-- Files whose rows belong to any of the given session dates.
SELECT DISTINCT file FROM (SELECT file, UNNEST(dates) AS d FROM source_files)
WHERE d IN (SELECT UNNEST($dates::DATE[]))
ORDER BY file;
