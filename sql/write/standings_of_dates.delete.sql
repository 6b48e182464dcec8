-- Standings derived from the dates' results are withdrawn when the dates are validated again:
-- they are rewritten only once their checks pass (a blocked date has no official standings).
DELETE FROM standings
WHERE (scope = 'session' AND session_date IN (SELECT UNNEST($dates::DATE[])))
   OR (scope = 'event' AND event_id IN (
        SELECT DISTINCT event_id FROM validated_results
        WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
        UNION
        SELECT DISTINCT event_id FROM scored_results
        WHERE session_date IN (SELECT UNNEST($dates::DATE[]))));
