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
    ns_result        VARCHAR,
    ew_result        VARCHAR,
    deposit_retained BOOLEAN,
    without_merit    BOOLEAN,
    pending          BOOLEAN NOT NULL,
    note             VARCHAR,
    file             VARCHAR NOT NULL,
    location         VARCHAR NOT NULL
);
