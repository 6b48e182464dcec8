-- Team matches (Law 86): one row per match per session (a knockout segment). IMPs won on the
-- boards (as a scoreboard shows them), net IMPs (penalties deducted) that decide the VPs,
-- knockout carry-over and the winner.
CREATE TABLE IF NOT EXISTS matches (
    session_date     DATE NOT NULL,
    event_id         VARCHAR NOT NULL,
    session          INTEGER NOT NULL,
    section          VARCHAR,
    round            INTEGER,
    match_id         VARCHAR NOT NULL,
    stage            VARCHAR,            -- round_robin | swiss | knockout
    home             VARCHAR NOT NULL,   -- the team seated NS at the match's first table
    away             VARCHAR NOT NULL,
    boards           INTEGER NOT NULL,
    missing_boards   INTEGER NOT NULL,   -- boards with no comparable result (profile's score)
    home_imps        DOUBLE NOT NULL,    -- IMPs won on the boards
    away_imps        DOUBLE,
    home_net         DOUBLE NOT NULL,    -- net IMPs of the match, penalties deducted
    away_net         DOUBLE,
    home_penalties   DOUBLE,             -- IMP penalties off the team's side, in full (Law 90)
    away_penalties   DOUBLE,
    home_carry_over  DOUBLE,             -- knockout: net IMPs brought from earlier segments
    away_carry_over  DOUBLE,
    home_vp          DOUBLE,             -- null in a knockout
    away_vp          DOUBLE,
    vp_scale         VARCHAR,
    winner           VARCHAR,            -- null when level
    profile          VARCHAR
);
