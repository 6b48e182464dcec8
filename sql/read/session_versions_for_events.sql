-- Every version of the session standings of the given events (all dates).
SELECT * REPLACE (
    strftime(session_date, '%Y-%m-%d') AS session_date,
    strftime(final_at, '%Y-%m-%d %H:%M:%S') AS final_at)
FROM standings WHERE scope = 'session' AND event_id IN (SELECT UNNEST($event_ids::VARCHAR[]));
