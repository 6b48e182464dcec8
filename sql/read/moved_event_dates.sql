-- The other dates of the events that left one of the $dates (an events.csv row moved to
-- another day, a file withdrawn): their totals must be recomputed where the event still is.
WITH gone AS (
    SELECT DISTINCT v.event_id
    FROM validated_results AS v
    WHERE strftime(v.session_date, '%Y-%m-%d') IN (SELECT UNNEST($dates::VARCHAR[]))
      AND NOT EXISTS (SELECT 1 FROM date_events AS n
                      WHERE n.session_date = v.session_date AND n.event_id = v.event_id)
)
SELECT DISTINCT strftime(n.session_date, '%Y-%m-%d') AS session_date
FROM date_events AS n
WHERE n.event_id IN (SELECT event_id FROM gone)
ORDER BY session_date;
