-- Law 78A conservation, per board of one session date (played results only; artificial scores
-- take no part in the comparison):
--   * every played result balances: NS + EW = top;
--   * the NS field and the EW field each sum to n * top / 2, i.e. k(k-1) on a full board of k
--     results and n(N-1) for a Neuberg- or linearly-factored board of n results out of N.
-- Exact: matchpoints are ns_mp_num / mp_den, and mp_den is common to a board's played results.
-- Returns the boards that break it (none when all is well).
WITH played AS (
    SELECT * FROM scored_results WHERE session_date = $session_date AND kind = 'played'
)
SELECT event_id, session, section, board,
       count(*)                                   AS results,
       any_value(n_results)                       AS n_results,
       any_value(expected)                        AS expected,
       count(DISTINCT mp_den)                     AS denominators,
       sum(ns_mp_num)                             AS ns_sum_num,
       sum(ew_mp_num)                             AS ew_sum_num,
       any_value(mp_den)                          AS mp_den,
       any_value(top)                             AS top,
       bool_and(ns_mp_num + ew_mp_num = CAST(top AS BIGINT) * mp_den) AS balanced
FROM played
GROUP BY ALL
HAVING count(DISTINCT mp_den) <> 1
    OR count(*) <> any_value(n_results)
    OR 2 * sum(ns_mp_num) <> count(*) * CAST(any_value(top) AS BIGINT) * any_value(mp_den)
    OR 2 * sum(ew_mp_num) <> count(*) * CAST(any_value(top) AS BIGINT) * any_value(mp_den)
    OR NOT bool_and(ns_mp_num + ew_mp_num = CAST(top AS BIGINT) * mp_den)
ORDER BY event_id, session, section, board;
