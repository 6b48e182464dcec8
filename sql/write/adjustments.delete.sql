-- One partition: the rows of one session date.
DELETE FROM adjustments WHERE session_date = $session_date;
