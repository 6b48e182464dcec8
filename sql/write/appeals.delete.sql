-- One partition: the rows of one session date.
DELETE FROM appeals WHERE session_date = $session_date;
