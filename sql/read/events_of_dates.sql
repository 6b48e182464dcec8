-- The events with a session on one of the $dates, in the inbox as last read.
SELECT DISTINCT event_id
FROM date_events
WHERE strftime(session_date, '%Y-%m-%d') IN (SELECT UNNEST($dates::VARCHAR[]))
ORDER BY event_id;
