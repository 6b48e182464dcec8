-- One partition: the rows of one session date.
DELETE FROM rulings WHERE session_date = $session_date;
