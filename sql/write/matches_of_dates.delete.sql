-- The team matches of every event with results on the given dates are withdrawn when the dates
-- are validated again, as their event standings are (standings_of_dates): the standings stage
-- writes them again for the events still there. An event whose every file left the inbox keeps
-- no matches (no date of it is computed again to replace them).
DELETE FROM matches
WHERE event_id IN (
    SELECT DISTINCT event_id FROM validated_results
    WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
    UNION
    SELECT DISTINCT event_id FROM scored_results
    WHERE session_date IN (SELECT UNNEST($dates::DATE[])));
