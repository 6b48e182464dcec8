-- View dashboards.penalty_stats (the public dashboards' role): the penalty statistics by
-- period, event, event type, level, club and law; not by director (directors are compared in
-- dashboards_audit only).
SELECT * FROM penalty_stats WHERE dimension <> 'director'
