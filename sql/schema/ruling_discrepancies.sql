-- Mart: pairs of rulings by different directors with materially different outcomes, side by
-- side (pipelines/audit/marts.py): the cases an auditor should read.
CREATE TABLE IF NOT EXISTS ruling_discrepancies (
    case_type        VARCHAR NOT NULL,  -- same_board | adjustment_size | same_law
    event_id         VARCHAR NOT NULL,
    law              VARCHAR,           -- first law cited by ruling a
    reason           VARCHAR NOT NULL,
    a_ruling_id      VARCHAR NOT NULL,  -- a: the ruling that adjusted
    a_director       VARCHAR,
    a_session        BIGINT,
    a_session_date   DATE,
    a_board          BIGINT,
    a_table          VARCHAR,
    a_ns_pair        VARCHAR,
    a_ew_pair        VARCHAR,
    a_kind           VARCHAR,
    a_laws           VARCHAR,
    a_offending      VARCHAR,
    a_ns_result      VARCHAR,
    a_ew_result      VARCHAR,
    a_adjustment_pct DOUBLE,           -- size in % of a top (matchpoints)
    a_adjustment_imps DOUBLE,          -- size in IMPs (IMP forms)
    a_note           VARCHAR,
    b_ruling_id      VARCHAR NOT NULL,  -- b: the ruling that let the score stand (or adjusted otherwise)
    b_director       VARCHAR,
    b_session        BIGINT,
    b_session_date   DATE,
    b_board          BIGINT,
    b_table          VARCHAR,
    b_ns_pair        VARCHAR,
    b_ew_pair        VARCHAR,
    b_kind           VARCHAR,
    b_laws           VARCHAR,
    b_offending      VARCHAR,
    b_ns_result      VARCHAR,
    b_ew_result      VARCHAR,
    b_adjustment_pct DOUBLE,
    b_adjustment_imps DOUBLE,
    b_note           VARCHAR
);
