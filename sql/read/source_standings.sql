-- The official totals, percentages and places as the files give them.
SELECT * FROM source_standings ORDER BY file, location, figures NULLS FIRST;
