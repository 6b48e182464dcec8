-- One row per official figure (the exporting program's) that Traveller does not reproduce as
-- published: both values and the reason (pipelines/scoring/reconcile.py). Recomputed whole.
CREATE TABLE IF NOT EXISTS reconciliation (
    file        VARCHAR NOT NULL,
    location    VARCHAR,            -- where the official figure is in the file
    event_id    VARCHAR,
    session     VARCHAR,
    section     VARCHAR,
    board       VARCHAR,            -- traveller lines
    contestant  VARCHAR,            -- a pair, or 'ns-ew' for a traveller line
    direction   VARCHAR,
    what        VARCHAR NOT NULL,   -- line | imps | total | percentage | place | vp
    official    VARCHAR,            -- as the file shows it (a line: 'ns/ew')
    traveller   VARCHAR,            -- as Traveller publishes it
    code        VARCHAR NOT NULL,   -- the reason (unknown: unexplained)
    explanation VARCHAR NOT NULL
);
