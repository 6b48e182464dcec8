-- Every version of the session standings of the given events (all dates).
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date)
FROM standings WHERE scope = 'session' AND event_id IN (SELECT UNNEST($event_ids::VARCHAR[]));
