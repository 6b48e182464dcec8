-- The session standings of the given dates, and the event standings of every event with a
-- session on one of them (an event's totals are recomputed from all its sessions).
DELETE FROM standings
WHERE (scope = 'session' AND session_date IN (SELECT UNNEST($dates::DATE[])))
   OR (scope = 'event' AND event_id IN (SELECT UNNEST($event_ids::VARCHAR[])));
