-- Events of the run's dates whose official standings are held back, with every reason.
SELECT strftime(session_date, '%Y-%m-%d') AS session_date, event_id, file, location, field,
       reason
FROM holds
WHERE session_date IN (SELECT CAST(UNNEST($dates::VARCHAR[]) AS DATE))
ORDER BY session_date, event_id, file, location;
