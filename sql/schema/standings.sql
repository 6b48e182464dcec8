-- Official standings per session (scope 'session') and per event (scope 'event').
CREATE TABLE IF NOT EXISTS standings (
    event_id           VARCHAR NOT NULL,
    scope              VARCHAR NOT NULL,   -- session | event
    session            INTEGER,            -- null for scope event
    session_date       DATE,               -- the session's date; for an event its last session's
    section            VARCHAR NOT NULL,
    contestant         VARCHAR NOT NULL,
    direction          VARCHAR,            -- NS | EW in a Mitchell, null in a Howell
    names              VARCHAR,
    boards             INTEGER NOT NULL,
    score              DOUBLE NOT NULL,    -- = score_num / score_den (exact, in unit), penalties deducted
    score_num          BIGINT NOT NULL,
    score_den          BIGINT NOT NULL,
    top                DOUBLE,             -- = top_num / top_den (null at IMPs and VPs)
    top_num            BIGINT,
    top_den            BIGINT,
    percentage         DOUBLE,             -- score / top (null at IMPs and VPs)
    unit               VARCHAR,            -- MP | IMP (Butler, cross-IMPs, knockouts) | VP (teams)
    penalties          DOUBLE NOT NULL,    -- penalties deducted (Laws 90, 91), in penalty_unit
    penalty_num        BIGINT NOT NULL,
    penalty_den        BIGINT NOT NULL,
    penalty_unit       VARCHAR,            -- MP | IMP (IMP forms; teams: off the match margins)
    vp_penalties       DOUBLE,             -- teams scored in VPs: VP penalties off the VP score
    vp_penalty_num     BIGINT,
    vp_penalty_den     BIGINT,
    sanction           VARCHAR,            -- suspended | disqualified (Law 91): no place
    rank               INTEGER,            -- place; equal percentages share it
    tied               BOOLEAN NOT NULL,
    tiebreak           VARCHAR,            -- head-to-head tie-break points, where the profile breaks ties
    score_display      DOUBLE,             -- rounded as the profile shows them
    percentage_display DOUBLE,
    movement           VARCHAR,
    profile            VARCHAR,
    version            INTEGER,            -- 1, 2, ...: each appeal decision or correction
    status             VARCHAR             -- provisional | final | superseded (older versions)
);
