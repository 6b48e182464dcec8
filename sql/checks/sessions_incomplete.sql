-- Sessions of the given dates whose results miss part of their movement or of what their
-- event states (pipelines/scoring/completeness.py); each holds its event's standings.
SELECT strftime(session_date, '%Y-%m-%d') AS session_date, event_id, session, section, file,
       location, field, reason
FROM incomplete_sessions
WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
ORDER BY session_date, event_id, session, section, field, location;
