-- The session changes of one date, and the event changes of every event with a session that
-- day (an event's versions are recomputed from all its sessions).
DELETE FROM standings_changes
WHERE (scope = 'session' AND session_date = $session_date)
   OR (scope = 'event' AND event_id IN (SELECT UNNEST($event_ids::VARCHAR[])));
