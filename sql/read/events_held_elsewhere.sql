-- Events of the given list held back on another session date than this one (their event
-- standings, totalled over every session, are held too).
SELECT DISTINCT event_id FROM holds
WHERE event_id IN (SELECT UNNEST($event_ids::VARCHAR[])) AND session_date <> $session_date
ORDER BY event_id;
