-- Every scored result of the given events, whatever their dates (for event totals).
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date)
FROM scored_results WHERE event_id IN (SELECT UNNEST($event_ids::VARCHAR[]))
ORDER BY session_date, file, rowid;
