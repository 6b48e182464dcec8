-- The events with validated results on one of the given session dates.
SELECT DISTINCT event_id FROM validated_results
WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
ORDER BY event_id;
