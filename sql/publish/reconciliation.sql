-- Per event session whose file carried official figures: how many the event's files compared
-- and, per reason, how many of this session's figures differ (none: a row with figures 0).
-- Only counts and reasons: no contestant, name or membership number.
WITH files AS (
    SELECT event_id, sum(compared) AS compared
    FROM reconciliation_files
    WHERE compared > 0 AND event_id IN (SELECT UNNEST($events::VARCHAR[]))
    GROUP BY event_id
),
diffs AS (
    SELECT event_id, TRY_CAST(session AS INTEGER) AS session, code, explanation,
           count(*) AS figures
    FROM reconciliation
    GROUP BY event_id, session, code, explanation
)
SELECT f.event_id, f.compared, d.session, d.code, d.explanation, coalesce(d.figures, 0) AS figures
FROM files AS f
LEFT JOIN diffs AS d USING (event_id)
ORDER BY f.event_id, d.session, figures DESC, d.code, d.explanation;
