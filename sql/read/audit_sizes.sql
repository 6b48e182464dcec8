-- Per ruling of the official version: the mean size of its change to the table's results, in %
-- of the board's top at matchpoints or in IMPs at IMP forms (adjusted scores), and what a
-- penalty deducted (matchpoints and percentage points, or IMPs, or VPs).
WITH tops AS (
    SELECT event_id, session, section, deal_round, board, max(top) AS top
    FROM scored_results
    WHERE top > 0
    GROUP BY ALL
)
SELECT a.ruling_id,
       avg(abs(a.mp_change) / t.top * 100)
           FILTER (WHERE a.role = 'table' AND coalesce(a.unit, 'MP') = 'MP')    AS adjustment_pct,
       avg(abs(a.change)) FILTER (WHERE a.role = 'table' AND a.unit = 'IMP')   AS adjustment_imps,
       sum(-a.mp_change)
           FILTER (WHERE a.role = 'penalized' AND coalesce(a.unit, 'MP') = 'MP') AS deducted_mp,
       sum(-a.percentage_points)
           FILTER (WHERE a.role = 'penalized' AND coalesce(a.unit, 'MP') = 'MP') AS deducted_pct,
       sum(-a.change) FILTER (WHERE a.role = 'penalized' AND a.unit = 'IMP')  AS deducted_imps,
       sum(-a.change) FILTER (WHERE a.role = 'penalized' AND a.unit = 'VP')   AS deducted_vps
FROM adjustments a
LEFT JOIN tops t
  ON t.event_id = a.event_id AND t.session = a.session
 AND t.section IS NOT DISTINCT FROM a.section AND t.deal_round = a.deal_round
 AND t.board = a.board
GROUP BY a.ruling_id
ORDER BY a.ruling_id;
