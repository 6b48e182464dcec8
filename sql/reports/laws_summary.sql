-- The Laws engine's part of a run, for the command line's summary.
SELECT
    (SELECT count(*) FROM rulings)                                         AS rulings,
    (SELECT count(*) FROM rulings WHERE NOT applies)                       AS rulings_not_applied,
    (SELECT count(*) FROM rulings WHERE late)                              AS rulings_late,
    (SELECT count(*) FROM appeals)                                         AS appeals,
    (SELECT count(*) FROM appeals WHERE pending)                           AS appeals_pending,
    (SELECT count(*) FROM appeals WHERE NOT applies)                       AS appeals_not_applied,
    (SELECT count(*) FROM scored_results WHERE adjustment IS NOT NULL)     AS adjusted_results,
    (SELECT count(*) FROM adjustments)                                     AS adjustments,
    (SELECT coalesce(max(version), 0) FROM standings)                      AS max_version,
    (SELECT count(*) FROM (SELECT DISTINCT event_id, session FROM standings
        WHERE scope = 'session' AND status = 'final'))                     AS sessions_final,
    (SELECT count(*) FROM (SELECT DISTINCT event_id, session FROM standings
        WHERE scope = 'session' AND status = 'provisional'))               AS sessions_provisional,
    (SELECT count(*) FROM (SELECT DISTINCT event_id, session FROM standings
        WHERE scope = 'session' AND status = 'held'))                      AS sessions_held;
