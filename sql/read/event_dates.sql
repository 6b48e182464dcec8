-- Every session date of the given events (to gather their rulings and standings).
SELECT DISTINCT strftime(session_date, '%Y-%m-%d') AS session_date FROM validated_results
WHERE event_id IN (SELECT UNNEST($event_ids::VARCHAR[]));
