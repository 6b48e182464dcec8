-- Law 77: played results of the given dates whose stated score differs from the score of the
-- contract, declarer, tricks and Law 2 vulnerability. Kept with both values; they hold their
-- events' standings.
SELECT strftime(session_date, '%Y-%m-%d') AS session_date, file, location, event_id, session,
       section, board, ns_pair, ew_pair, contract, declarer, tricks, stated_score,
       computed_score
FROM validated_results
WHERE session_date IN (SELECT UNNEST($dates::DATE[])) AND score_agrees = false
ORDER BY session_date, file, location;
