-- The whole cached result rows at the given places (file and ordinal, pairwise).
WITH wanted AS (
    SELECT UNNEST($files::VARCHAR[]) AS file, UNNEST($ordinals::INTEGER[]) AS ordinal
)
SELECT r.* EXCLUDE (file_key)
FROM read_results AS r
JOIN wanted USING (file, ordinal);
