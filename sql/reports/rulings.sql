-- Every ruling and appeal of the warehouse with what became of it, for `traveller report
-- rulings`: applied; kept but not applied, with the reason (late, Laws 79C / 92B; withdrawn
-- on appeal; an appeal the Laws do not allow, 93B3; superseded); or rejected — a row of a
-- ruling or appeal log that could not be placed or applied as written (wrong board, unknown
-- pair, an id used twice, no date), with the reason. $not_applied_only: only the last two.
WITH logs AS (
    SELECT file FROM source_files WHERE format IN ('rulings_csv', 'appeals_csv')
), every AS (
    SELECT session_date, 'ruling' AS what, ruling_id AS id, event_id, session,
           CAST(board AS VARCHAR) AS board, kind,
           CASE WHEN applies THEN 'applied' ELSE 'not applied' END AS status,
           not_applied_reason AS reason, file, location
    FROM rulings
    UNION ALL
    SELECT session_date, 'appeal', appeal_id, event_id, session, NULL, coalesce(outcome, 'pending'),
           CASE WHEN applies THEN 'applied' ELSE 'not applied' END,
           not_applied_reason, file, location
    FROM appeals
    UNION ALL
    SELECT r.session_date, CASE WHEN s.format = 'appeals_csv' THEN 'appeal' ELSE 'ruling' END,
           NULL, NULL, NULL, NULL, r.field, 'rejected', r.reason, r.file, r.location
    FROM rejected_inputs AS r
    JOIN source_files AS s ON s.file = r.file
    WHERE r.stage = 'rulings' OR r.file IN (SELECT file FROM logs)
)
SELECT strftime(session_date, '%Y-%m-%d') AS session_date, what, id, event_id,
       CAST(session AS VARCHAR) AS session, board, kind, status, reason, file, location
FROM every
WHERE NOT $not_applied_only OR status <> 'applied'
ORDER BY session_date NULLS LAST, event_id NULLS LAST, session, file, location;
