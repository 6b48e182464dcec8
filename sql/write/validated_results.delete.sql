-- One partition: the rows of one session date.
DELETE FROM validated_results WHERE session_date = $session_date;
