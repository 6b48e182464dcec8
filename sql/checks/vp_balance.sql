-- Victory points: on a team match whose boards balanced (the two teams' net IMPs cancel), the
-- winner's VPs and the loser's sum to exactly 20 (WBF 2013 scale: loser = 20 - winner). The
-- matches of every event with a match on one of the given dates.
SELECT strftime(session_date, '%Y-%m-%d') AS session_date, event_id, session, round, match_id,
       home, away, home_net, away_net, home_vp, away_vp
FROM matches
WHERE event_id IN (
        SELECT event_id FROM matches WHERE session_date IN (SELECT UNNEST($dates::DATE[])))
  AND home_vp IS NOT NULL
  AND home_net + away_net = 0
  AND round(home_vp + away_vp, 2) <> 20
ORDER BY event_id, session, round, match_id;
