-- Accepted rulings within a window of session dates ($date_from, $date_to: null for no bound).
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date)
FROM rulings
WHERE ($date_from IS NULL OR session_date >= CAST($date_from AS DATE))
  AND ($date_to IS NULL OR session_date <= CAST($date_to AS DATE))
ORDER BY session_date, ruling_id;
