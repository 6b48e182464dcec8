-- Things a scorer should look at that reject nothing: a Bridgemate entry superseded by a later
-- one (field 'superseded'), a table short of results, a contract flagged as suspicious, ...
CREATE TABLE IF NOT EXISTS input_warnings (
    file     VARCHAR NOT NULL,
    location VARCHAR NOT NULL,
    field    VARCHAR NOT NULL,
    reason   VARCHAR NOT NULL,
    raw      VARCHAR
);
