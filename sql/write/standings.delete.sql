-- The session standings of one date, and the event standings of every event with a session
-- that day (an event's totals are recomputed from all its sessions).
DELETE FROM standings
WHERE (scope = 'session' AND session_date = $session_date)
   OR (scope = 'event' AND event_id IN (SELECT UNNEST($event_ids::VARCHAR[])));
