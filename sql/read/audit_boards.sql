-- Boards played (table results, boards not played left out) per event session, optionally
-- within a window of session dates ($date_from, $date_to: null for no bound).
SELECT event_id, session, strftime(session_date, '%Y-%m-%d') AS session_date,
       count(*) AS boards_played
FROM scored_results
WHERE kind <> 'not_played'
  AND ($date_from IS NULL OR session_date >= CAST($date_from AS DATE))
  AND ($date_to IS NULL OR session_date <= CAST($date_to AS DATE))
GROUP BY ALL
ORDER BY event_id, session;
