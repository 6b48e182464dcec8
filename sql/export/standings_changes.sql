-- What each newer version of the standings changed, and why.
SELECT * FROM standings_changes ORDER BY session_date, event_id, scope, session, version;
