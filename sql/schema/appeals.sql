-- Every accepted appeal (Laws 92, 93).
CREATE TABLE IF NOT EXISTS appeals (
    session_date     DATE NOT NULL,
    appeal_id        VARCHAR NOT NULL,
    ruling_id        VARCHAR NOT NULL,
    event_id         VARCHAR NOT NULL,
    session          INTEGER NOT NULL,
    lodged_at        TIMESTAMP,
    lodged_by        VARCHAR,
    heard_by         VARCHAR,            -- committee | panel | td_in_charge
    decided_at       TIMESTAMP,
    outcome          VARCHAR,            -- upheld | changed | changed_one_side | withdrawn | referred_back
    ns_result        VARCHAR,            -- new results ('score stands': the table result)
    ew_result        VARCHAR,
    penalty          VARCHAR,            -- an appeal about a penalty: its new amount
    deposit_retained BOOLEAN,
    without_merit    BOOLEAN,
    pending          BOOLEAN NOT NULL,   -- undecided and admissible
    late             BOOLEAN NOT NULL,   -- lodged after the appeal period (Law 92B)
    applies          BOOLEAN NOT NULL,   -- false: late, against discipline (93B3), ...
    not_applied_reason VARCHAR,
    note             VARCHAR,
    file             VARCHAR NOT NULL,
    location         VARCHAR NOT NULL
);
