-- The session changes of the given dates, and the event changes of every event with a
-- session on one of them (an event's versions are recomputed from all its sessions).
DELETE FROM standings_changes
WHERE (scope = 'session' AND session_date IN (SELECT UNNEST($dates::DATE[])))
   OR (scope = 'event' AND event_id IN (SELECT UNNEST($event_ids::VARCHAR[])));
