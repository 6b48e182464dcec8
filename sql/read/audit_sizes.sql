-- Per ruling of the official version: the mean size of its change to the table's results in %
-- of the board's top (adjusted scores), and what a penalty deducted.
WITH tops AS (
    SELECT event_id, session, section, board, max(top) AS top
    FROM scored_results
    WHERE top > 0
    GROUP BY ALL
)
SELECT a.ruling_id,
       avg(abs(a.mp_change) / t.top * 100) FILTER (WHERE a.role = 'table') AS adjustment_pct,
       sum(-a.mp_change) FILTER (WHERE a.role = 'penalized')                AS deducted_mp,
       sum(-a.percentage_points) FILTER (WHERE a.role = 'penalized')        AS deducted_pct
FROM adjustments a
LEFT JOIN tops t
  ON t.event_id = a.event_id AND t.session = a.session
 AND t.section IS NOT DISTINCT FROM a.section AND t.board = a.board
GROUP BY a.ruling_id
ORDER BY a.ruling_id;
