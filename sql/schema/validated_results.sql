-- Typed, checked table results with the Law 77 score; partitioned by session_date.
CREATE TABLE IF NOT EXISTS validated_results (
    session_date     DATE NOT NULL,
    event_id         VARCHAR NOT NULL,
    session          INTEGER NOT NULL,
    section          VARCHAR NOT NULL,
    round            INTEGER,
    deal_round       INTEGER NOT NULL,  -- the round whose deal the board is (teams; pairs whose
                                        -- profile re-deals per round); 0: same deals all session
    "table"          INTEGER,
    board            INTEGER NOT NULL,
    ns_pair          VARCHAR NOT NULL,
    ew_pair          VARCHAR NOT NULL,
    contract         VARCHAR,
    declarer         VARCHAR,
    tricks           TINYINT,
    score_stated     VARCHAR,           -- the score column as the club program wrote it
    stated_score     BIGINT,            -- ... when it is an NS-signed number
    computed_score   BIGINT,            -- Law 77 score from contract, declarer, tricks, Law 2 vulnerability
    score_agrees     BOOLEAN,           -- false: kept with both values, blocks official standings
    kind             VARCHAR NOT NULL,  -- played | artificial | not_played
    ns_art           VARCHAR,           -- artificial score of each side: 60 50 40 or + = -
    ew_art           VARCHAR,
    movement         VARCHAR NOT NULL,
    profile          VARCHAR NOT NULL,
    expected_results INTEGER,
    laws             VARCHAR,
    source_ns_mp     DOUBLE,            -- matchpoints the exporting program computed
    source_ew_mp     DOUBLE,
    file             VARCHAR NOT NULL,
    location         VARCHAR NOT NULL,
    format           VARCHAR,
    form             VARCHAR,           -- pairs | individual
    scoring          VARCHAR,           -- matchpoints | butler | cross_imps | imps
    stage            VARCHAR,           -- teams: round_robin | swiss | knockout
    vp_scale         VARCHAR,           -- teams: wbf2013 | wbf2013_discrete | none
    boards_per_match INTEGER,           -- teams: boards of a match (the VP scale's length)
    north            VARCHAR,           -- an individual event's players (sides north/south,
    south            VARCHAR,           -- east/west: each player gets its side's score)
    east             VARCHAR,
    west             VARCHAR
);
