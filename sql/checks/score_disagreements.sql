-- Law 77: played results whose stated score differs from the score of the contract, declarer,
-- tricks and Law 2 vulnerability. Kept with both values; they block the date's standings.
SELECT file, location, event_id, session, section, board, ns_pair, ew_pair,
       contract, declarer, tricks, stated_score, computed_score
FROM validated_results
WHERE session_date = $session_date AND score_agrees = false
ORDER BY file, location;
