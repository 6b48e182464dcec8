-- Every accepted ruling, cleaned, with its effective outcome after appeals (latest decision
-- wins). The analytics marts read this table.
CREATE TABLE IF NOT EXISTS rulings (
    session_date        DATE NOT NULL,
    ruling_id           VARCHAR NOT NULL,
    event_id            VARCHAR NOT NULL,
    session             INTEGER NOT NULL,
    section             VARCHAR NOT NULL,
    board               INTEGER,            -- null for a penalty
    round               VARCHAR,
    deal_round          INTEGER,            -- the round whose deal the board is (0: same deals all session)
    "table"             VARCHAR,
    ns_pair             VARCHAR,
    ew_pair             VARCHAR,
    director            VARCHAR,
    called_at           TIMESTAMP,
    ruled_at            TIMESTAMP,
    laws                VARCHAR,            -- ';'-separated citations
    kind                VARCHAR NOT NULL,
    offending           VARCHAR NOT NULL,   -- NS | EW | both | none
    ns_result           VARCHAR,            -- as ruled (canonical notation)
    ew_result           VARCHAR,
    board_version       VARCHAR,
    penalized           VARCHAR,
    penalized_direction VARCHAR,
    penalty             VARCHAR,
    approved            BOOLEAN,
    note                VARCHAR,
    appeals             INTEGER NOT NULL,   -- appeals lodged against it
    pending_appeals     INTEGER NOT NULL,
    appeal_outcome      VARCHAR,            -- outcome of the latest decided appeal
    effective_ns_result VARCHAR,            -- after appeals
    effective_ew_result VARCHAR,
    changed_on_appeal   BOOLEAN NOT NULL,
    effective_kind      VARCHAR NOT NULL,   -- the kind its results make after appeals (Law 93)
    effective_penalty   VARCHAR,            -- a penalty's amount after appeals
    late                BOOLEAN NOT NULL,   -- requested or made after the period (79C, 92B)
    applies             BOOLEAN NOT NULL,   -- false: late, withdrawn on appeal, ...
    not_applied_reason  VARCHAR,
    supersedes          VARCHAR,            -- the ruling (same table and board) this one replaces
    file                VARCHAR NOT NULL,
    location            VARCHAR NOT NULL
);
