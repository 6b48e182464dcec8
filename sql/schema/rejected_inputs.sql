-- Every row or file not accepted, with where it is and a reason a scorer understands.
CREATE TABLE IF NOT EXISTS rejected_inputs (
    stage        VARCHAR NOT NULL,  -- read (whole inbox) | validate, rulings (one session date)
    session_date DATE,              -- the partition, for stage validate
    file         VARCHAR NOT NULL,
    location     VARCHAR NOT NULL,  -- 'line 12', 'EVENT/BOARD[3]/TRAVELLER_LINE[2]', 'file'
    field        VARCHAR NOT NULL,
    reason       VARCHAR NOT NULL,
    raw          VARCHAR
);
