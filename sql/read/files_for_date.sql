-- Files whose results belong to a session date.
SELECT file FROM source_files WHERE list_contains(dates, $session_date::DATE) ORDER BY file;
