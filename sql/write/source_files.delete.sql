-- The registry is rewritten whole on every scan of the inbox.
DELETE FROM source_files;
