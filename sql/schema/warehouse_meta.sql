-- The fingerprint of the table definitions this warehouse was built with.
CREATE TABLE IF NOT EXISTS warehouse_meta (schema_version VARCHAR NOT NULL);
