-- The events' details the audit controls for (level, form, scoring) and their director.
SELECT event_id, session, form, scoring, level, club, director FROM events ORDER BY event_id, session;
