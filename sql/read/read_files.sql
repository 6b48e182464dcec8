-- The read cache's files: each as its reader read it, in the inbox's order.
SELECT * FROM read_files ORDER BY file_key;
