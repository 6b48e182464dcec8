-- Per file, while reading the inbox: every row read is an accepted reference row (event,
-- contestant, official standing), a dated table result (passed on to its date's partition),
-- rejected, or an entry superseded by a later one (reported as a warning). A file that could
-- not be read at all is rejected as a whole.
SELECT file, format, rows_read, rows_reference, rows_dated, rows_rejected, rows_superseded,
       whole_file_rejected,
       whole_file_rejected
         OR rows_read = rows_reference + rows_dated + rows_rejected + rows_superseded AS balanced
FROM source_files
ORDER BY file;
