-- The official figures an exporting program (Compscore, Magic Contest, ...) computed, as given.
CREATE TABLE IF NOT EXISTS source_standings (
    file       VARCHAR NOT NULL,
    location   VARCHAR NOT NULL,
    event_id   VARCHAR,
    session    VARCHAR,
    section    VARCHAR,
    contestant VARCHAR,
    direction  VARCHAR,
    total      VARCHAR,
    percentage VARCHAR,
    place      VARCHAR,
    tiebreak   VARCHAR
);
