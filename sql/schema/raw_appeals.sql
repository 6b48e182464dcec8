-- Appeals as read from the appeal logs, dated by the ruling they are about.
CREATE TABLE IF NOT EXISTS raw_appeals (
    file             VARCHAR NOT NULL,
    location         VARCHAR NOT NULL,
    appeal_id        VARCHAR,
    ruling_id        VARCHAR,
    lodged_at        VARCHAR,
    lodged_by        VARCHAR,
    heard_by         VARCHAR,
    decided_at       VARCHAR,
    outcome          VARCHAR,
    ns_result        VARCHAR,
    ew_result        VARCHAR,
    penalty          VARCHAR,
    deposit_retained VARCHAR,
    without_merit    VARCHAR,
    note             VARCHAR,
    session_date     DATE NOT NULL,
    event_id         VARCHAR,
    session          VARCHAR
);
