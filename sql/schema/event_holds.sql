-- Event sessions whose details are not known, one row per reason: a row of events.csv (or of
-- a file's header) that was rejected, or an events.csv with a column Traveller does not read.
-- Their results are scored on what is known, their standings held (status 'held', never
-- published) until the row is corrected (pipelines/scoring/events.py: event_holds).
CREATE TABLE IF NOT EXISTS event_holds (
    event_id VARCHAR NOT NULL,
    session  VARCHAR,            -- null: every session of the event (the row's session unreadable)
    file     VARCHAR NOT NULL,
    location VARCHAR NOT NULL,
    field    VARCHAR NOT NULL,
    reason   VARCHAR NOT NULL
);
