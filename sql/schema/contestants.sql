-- Contestants' names. player_ids are national membership numbers: stored, never published.
CREATE TABLE IF NOT EXISTS contestants (
    file       VARCHAR NOT NULL,
    location   VARCHAR NOT NULL,
    event_id   VARCHAR NOT NULL,
    contestant VARCHAR NOT NULL,
    direction  VARCHAR,               -- NS | EW in a Mitchell, null in a Howell
    names      VARCHAR,
    player_ids VARCHAR,
    section    VARCHAR                -- the contestant's section; null: that number in any
);
