-- Resolved event sessions, dates as ISO text for the engine.
SELECT * REPLACE (strftime(date, '%Y-%m-%d') AS date) FROM events ORDER BY event_id, session;
