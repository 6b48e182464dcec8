-- Every registered file and its SHA-256, as the last reading of the inbox found them.
SELECT file, sha256 FROM source_files ORDER BY file;
