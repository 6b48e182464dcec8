-- One row per table result with its matchpoints under the event's profile; partitioned by session_date.
CREATE TABLE IF NOT EXISTS scored_results (
    session_date     DATE NOT NULL,
    event_id         VARCHAR NOT NULL,
    session          INTEGER NOT NULL,
    section          VARCHAR NOT NULL,
    round            INTEGER,
    deal_round       INTEGER NOT NULL,  -- the round whose deal the board is; 0: same deals all session
    "table"          INTEGER,
    board            INTEGER NOT NULL,
    ns_pair          VARCHAR NOT NULL,
    ew_pair          VARCHAR NOT NULL,
    contract         VARCHAR,
    declarer         VARCHAR,
    tricks           TINYINT,
    score_stated     VARCHAR,
    stated_score     BIGINT,
    computed_score   BIGINT,
    score_agrees     BOOLEAN,
    kind             VARCHAR NOT NULL,  -- played | artificial | adjusted (split, weighted) | not_played
    ns_art           VARCHAR,
    ew_art           VARCHAR,
    movement         VARCHAR NOT NULL,
    profile          VARCHAR NOT NULL,
    expected_results INTEGER,
    laws             VARCHAR,
    source_ns_mp     DOUBLE,
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
    west             VARCHAR,
    ns_score         BIGINT,            -- NS score compared with the field; null for artificial / not played
    n_results        INTEGER,           -- played results on the board
    expected         INTEGER,           -- results expected (N); the board is factored when n < N
    factoring        VARCHAR,           -- none | neuberg | linear
    top              DOUBLE,            -- full-field top 2(N-1) (N-1 on the 1/0.5 scale)
    ns_mp_num        BIGINT,            -- exact matchpoints: ns_mp_num / mp_den
    ew_mp_num        BIGINT,
    mp_den           BIGINT,
    ns_mp            DOUBLE,            -- matchpoints as they count in totals under the profile
    ew_mp            DOUBLE,
    ns_pct           DOUBLE,
    ew_pct           DOUBLE,
    ns_mp_display    DOUBLE,            -- as shown on the traveller under the profile
    ew_mp_display    DOUBLE,
    top_display      DOUBLE,
    board_version    VARCHAR,           -- the version of the board the table played (Law 87)
    adjustment       VARCHAR,           -- the kind of the ruling that changed this result
    ruling_id        VARCHAR,
    recorded_score   BIGINT,            -- the table result for the record (as corrected, 79C)
    correction_id    VARCHAR,           -- the score correction of the table result, if any
    -- IMP forms (Law 78B): exact IMPs ns_imps_num / imps_den; Butler datum; teams' match
    datum            BIGINT,            -- Butler: the board's datum (NS score)
    ns_imps_num      BIGINT,
    ew_imps_num      BIGINT,
    imps_den         BIGINT,
    ns_imps          DOUBLE,            -- IMPs to the NS side (teams: to the team seated NS)
    ew_imps          DOUBLE,
    ns_imps_display  DOUBLE,
    ew_imps_display  DOUBLE,
    match_id         VARCHAR,           -- teams: the match this board belongs to
    home             VARCHAR,
    away             VARCHAR,
    missing_result   BOOLEAN,           -- teams: the board had no comparable result
    -- Individuals (Law 89): the south and west players' own figures where the session-
    -- percentage rule (Law 12C2(c)) gave them another than their partner's; null elsewhere
    south_mp_num     BIGINT,            -- over mp_den
    south_mp         DOUBLE,
    south_mp_display DOUBLE,
    south_pct        DOUBLE,
    south_imps_num   BIGINT,            -- over imps_den
    south_imps       DOUBLE,
    south_imps_display DOUBLE,
    west_mp_num      BIGINT,
    west_mp          DOUBLE,
    west_mp_display  DOUBLE,
    west_pct         DOUBLE,
    west_imps_num    BIGINT,
    west_imps        DOUBLE,
    west_imps_display DOUBLE
);
