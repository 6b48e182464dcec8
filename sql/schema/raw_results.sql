-- Table results as read, in canonical notation, dated; partitioned by session_date.
CREATE TABLE IF NOT EXISTS raw_results (
    file         VARCHAR NOT NULL,
    location     VARCHAR NOT NULL,
    format       VARCHAR,
    event_id     VARCHAR,
    session      VARCHAR,
    section      VARCHAR,
    round        VARCHAR,
    "table"      VARCHAR,
    board        VARCHAR,
    ns_pair      VARCHAR,
    ew_pair      VARCHAR,
    contract     VARCHAR,
    declarer     VARCHAR,
    tricks       VARCHAR,
    score        VARCHAR,
    source_ns_mp VARCHAR,
    source_ew_mp VARCHAR,
    session_date DATE NOT NULL,
    lead         VARCHAR,             -- opening lead as the file states it (SQ, D10), if given
    entered_at   VARCHAR,             -- when entered at the table, YYYY-MM-DD HH:MM:SS (.bws)
    north        VARCHAR,             -- an individual event's players (ns_pair = north/south)
    south        VARCHAR,
    east         VARCHAR,
    west         VARCHAR
);
