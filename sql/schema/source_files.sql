-- The inbox registry: one row per file, the dates it touches, and how its rows were accounted for.
CREATE TABLE IF NOT EXISTS source_files (
    file                VARCHAR PRIMARY KEY,  -- path relative to the inbox
    sha256              VARCHAR NOT NULL,     -- a changed file is a new version
    size                BIGINT NOT NULL,
    format              VARCHAR NOT NULL,     -- detected from content: csv, events_csv, usebio, pbn, ...
    rows_read           BIGINT NOT NULL,      -- data rows the file holds
    rows_reference      BIGINT NOT NULL,      -- event / contestant / official-standing rows emitted
    rows_dated          BIGINT NOT NULL,      -- table results dated (passed to their partition)
    rows_rejected       BIGINT NOT NULL,      -- distinct locations rejected while reading
    rows_superseded     BIGINT NOT NULL,      -- entries a later entry replaced (Bridgemate history)
    whole_file_rejected BOOLEAN NOT NULL,     -- the file could not be read at all
    dates               DATE[] NOT NULL       -- session dates its results belong to
);
