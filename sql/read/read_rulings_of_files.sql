-- The cached rulings rows of the given files, as their readers gave them, in the inbox's order.
SELECT * EXCLUDE (ordinal, file_key) FROM read_rulings
WHERE file IN (SELECT UNNEST($files::VARCHAR[]))
ORDER BY file_key, ordinal;
