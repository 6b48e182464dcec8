-- Changes derived from a date's results are withdrawn when the date is validated again.
DELETE FROM standings_changes
WHERE (scope = 'session' AND session_date = $session_date)
   OR (scope = 'event' AND event_id IN (
        SELECT DISTINCT event_id FROM validated_results WHERE session_date = $session_date
        UNION
        SELECT DISTINCT event_id FROM scored_results WHERE session_date = $session_date));
