-- Each event session's details, resolved: events.csv over the file's own header over defaults.
CREATE TABLE IF NOT EXISTS events (
    event_id           VARCHAR NOT NULL,
    session            INTEGER NOT NULL,
    date               DATE,
    name               VARCHAR,
    form               VARCHAR NOT NULL,   -- pairs | teams | individual
    scoring            VARCHAR NOT NULL,   -- matchpoints | butler | cross_imps | imps
    movement           VARCHAR NOT NULL,   -- howell | mitchell
    profile            VARCHAR NOT NULL,   -- regulations profile: wbf, ebu, acbl, abf, ffb
    profile_source     VARCHAR NOT NULL,   -- why this profile: events.csv, the program, --profile, default
    program            VARCHAR,            -- the exporting program the file names (USEBIO, PBN)
    laws               VARCHAR NOT NULL,   -- 2017 | 2007
    director           VARCHAR,
    correction_minutes INTEGER NOT NULL,   -- Law 79C correction period (default: the profile's)
    expected_results   INTEGER,            -- results expected per board, if the event says
    published_at       VARCHAR,            -- when official scores were made available (Law 79C)
    boards_per_match   INTEGER,            -- teams: boards in a match (VP scale length)
    vp_scale           VARCHAR,            -- teams: wbf2013 | wbf2013_discrete | none (knockout)
    stage              VARCHAR,            -- teams: round_robin | swiss | knockout
    file               VARCHAR,            -- where the (strongest) definition came from
    location           VARCHAR,
    club               VARCHAR,            -- the organising club (default: the event id's prefix)
    level              VARCHAR NOT NULL,   -- club | congress | national (the audit's controls)
    appeal_minutes     INTEGER NOT NULL,   -- Law 92B time to appeal (default: the profile's)
    PRIMARY KEY (event_id, session)
);
