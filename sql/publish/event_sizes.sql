-- How many scored results each event has (how much one batch of events to publish weighs).
SELECT event_id, count(*) AS results FROM scored_results GROUP BY event_id ORDER BY event_id;
