-- What each new version of the standings changed, and why (Law 79C corrections, appeals).
CREATE TABLE IF NOT EXISTS standings_changes (
    event_id          VARCHAR NOT NULL,
    scope             VARCHAR NOT NULL,   -- session | event
    session           INTEGER,
    session_date      DATE,
    version           INTEGER NOT NULL,   -- the new version
    cause             VARCHAR NOT NULL,   -- appeal | correction
    cause_id          VARCHAR NOT NULL,
    ruling_id         VARCHAR,
    section           VARCHAR,
    contestant        VARCHAR NOT NULL,
    direction         VARCHAR,
    score_before      DOUBLE,
    score_after       DOUBLE,
    score_change      DOUBLE,
    percentage_before DOUBLE,
    percentage_after  DOUBLE,
    rank_before       INTEGER,
    rank_after        INTEGER
);
