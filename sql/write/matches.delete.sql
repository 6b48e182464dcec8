-- Every match of every event with a session that day: a knockout's segments carry their
-- running total, so an event's matches are recomputed from all its sessions.
DELETE FROM matches WHERE event_id IN (SELECT UNNEST($event_ids::VARCHAR[]));
