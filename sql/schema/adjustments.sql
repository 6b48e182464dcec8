-- One row per contestant per applied ruling of the official version: what it changed.
CREATE TABLE IF NOT EXISTS adjustments (
    session_date      DATE NOT NULL,
    event_id          VARCHAR NOT NULL,
    session           INTEGER NOT NULL,
    section           VARCHAR,
    ruling_id         VARCHAR NOT NULL,
    appeal_id         VARCHAR,             -- the appeal that last changed the ruling, if any
    laws              VARCHAR,
    kind              VARCHAR NOT NULL,
    deal_round        INTEGER,             -- the round whose deal the board is (0: same deals all session)
    board             INTEGER,             -- null for a penalty
    contestant        VARCHAR NOT NULL,
    direction         VARCHAR,
    role              VARCHAR NOT NULL,    -- table | field | penalized
    score_before      DOUBLE,              -- board MPs (session score for a penalty) before
    score_after       DOUBLE,
    mp_change         DOUBLE,
    percentage_points DOUBLE,              -- mp_change / the contestant's session top x 100
    unit              VARCHAR,             -- MP | IMP (IMP forms) | VP (a teams VP penalty)
    change            DOUBLE               -- score_after - score_before (a penalty: -amount), in unit
);
