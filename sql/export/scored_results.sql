-- Every scored table result of the official version (the travellers).
SELECT * FROM scored_results ORDER BY session_date, event_id, session, section, deal_round, board;
