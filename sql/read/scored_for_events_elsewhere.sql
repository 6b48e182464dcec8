-- The scored results of the given events on session dates other than the given ones (with
-- those dates' own, every scored result of the events, for their totals and matches).
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date)
FROM scored_results
WHERE event_id IN (SELECT UNNEST($event_ids::VARCHAR[]))
  AND session_date NOT IN (SELECT UNNEST($dates::DATE[]))
ORDER BY session_date, file, rowid;
