-- Events whose official standings are held back, one row per reason: the event's other
-- results are scored, its standings are kept with status 'held' (never published), and every
-- other event of the date is published.
CREATE TABLE IF NOT EXISTS holds (
    session_date DATE NOT NULL,      -- the partition
    event_id     VARCHAR NOT NULL,
    file         VARCHAR NOT NULL,
    location     VARCHAR NOT NULL,
    field        VARCHAR NOT NULL,
    reason       VARCHAR NOT NULL
);
