-- The $dates that lose an event: one of their events (as last computed) has no session on
-- that date in the inbox any more. A run recomputes them first, so that the event's totals,
-- recomputed on its other dates, no longer count the session that left.
SELECT DISTINCT strftime(v.session_date, '%Y-%m-%d') AS session_date
FROM validated_results AS v
WHERE strftime(v.session_date, '%Y-%m-%d') IN (SELECT UNNEST($dates::VARCHAR[]))
  AND NOT EXISTS (SELECT 1 FROM date_events AS n
                  WHERE n.session_date = v.session_date AND n.event_id = v.event_id)
ORDER BY session_date;
