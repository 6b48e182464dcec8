-- One partition: the rows of one session date.
DELETE FROM raw_appeals WHERE session_date = $session_date;
