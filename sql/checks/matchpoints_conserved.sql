-- The columns of `scored_results` that Law 78A conservation examines (pipelines/scoring/
-- conservation.py: `breaches`), for the given session dates, in the order they were written.
-- Only what the check reads: the results' other columns are not fetched.
SELECT
    strftime(session_date, '%Y-%m-%d') AS session_date,
    event_id, session, section, deal_round, board, board_version,
    kind, ns_art, ew_art, compare, scoring, factoring, top,
    ns_mp_num, ew_mp_num, mp_den,
    ns_imps_num, ew_imps_num, imps_den, adjustment, missing_result
FROM scored_results WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
ORDER BY session_date, file, rowid;
