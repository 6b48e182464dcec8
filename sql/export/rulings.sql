-- Every accepted ruling with its effective outcome after appeals (no file paths dropped:
-- they name inbox files, not people).
SELECT * FROM rulings ORDER BY session_date, event_id, session, ruling_id;
