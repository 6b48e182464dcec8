-- Team matches (IMPs, net IMPs, carry-over, VPs, winner), for BI tools.
SELECT * FROM matches ORDER BY session_date, event_id, session, round, match_id;
