-- The cached result rows, lean: the columns that date a row and its row hash (taken when it
-- was read), in the inbox's order.
SELECT file, ordinal, location, event_id, session, session_date, row_hash
FROM read_results
ORDER BY file_key, ordinal;
