-- Events of the given list held back on a session date other than the given ones (their
-- event standings, totalled over every session, are held too).
SELECT DISTINCT event_id FROM holds
WHERE event_id IN (SELECT UNNEST($event_ids::VARCHAR[]))
  AND session_date NOT IN (SELECT UNNEST($dates::DATE[]))
ORDER BY event_id;
