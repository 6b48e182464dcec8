-- The cached appeals rows of the given files, as their readers gave them, in the inbox's order.
SELECT * EXCLUDE (ordinal, file_key) FROM read_appeals
WHERE file IN (SELECT UNNEST($files::VARCHAR[]))
ORDER BY file_key, ordinal;
