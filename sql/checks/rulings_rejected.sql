-- Rulings and appeals of the given dates that could not be applied (they hold their events).
SELECT strftime(session_date, '%Y-%m-%d') AS session_date, file, location, field, reason
FROM rejected_inputs
WHERE stage = 'rulings' AND session_date IN (SELECT UNNEST($dates::DATE[]))
ORDER BY session_date, file, location;
