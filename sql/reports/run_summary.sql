-- Totals for the command line's summary of a run.
SELECT
    (SELECT count(*) FROM source_files)                              AS files,
    (SELECT coalesce(sum(rows_read), 0) FROM source_files)           AS rows_read,
    (SELECT count(*) FROM scored_results)                            AS results_scored,
    (SELECT count(*) FROM rejected_inputs)                           AS rejections,
    (SELECT count(*) FROM (SELECT DISTINCT file, location FROM rejected_inputs)) AS rows_rejected,
    (SELECT count(*) FROM standings WHERE scope = 'session')         AS session_standings,
    (SELECT count(*) FROM standings WHERE scope = 'event')           AS event_standings,
    (SELECT count(*) FROM validated_results WHERE score_agrees = false) AS score_disagreements,
    (SELECT count(*) FROM input_warnings)                            AS warnings;
