-- One partition: the holds of one session date.
DELETE FROM holds WHERE session_date = $session_date;
