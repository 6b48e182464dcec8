-- Accepted appeals (dated by their ruling) within a window of session dates.
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date)
FROM appeals
WHERE ($date_from IS NULL OR session_date >= CAST($date_from AS DATE))
  AND ($date_to IS NULL OR session_date <= CAST($date_to AS DATE))
ORDER BY session_date, appeal_id;
