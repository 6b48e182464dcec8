-- Per file, while reading the inbox: every row read is an accepted reference row (event,
-- contestant, official standing), a dated table result (passed on to its date's partition),
-- or rejected. A file that could not be read at all is rejected as a whole.
SELECT file, format, rows_read, rows_reference, rows_dated, rows_rejected, whole_file_rejected,
       whole_file_rejected OR rows_read = rows_reference + rows_dated + rows_rejected AS balanced
FROM source_files
ORDER BY file;
