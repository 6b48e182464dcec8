-- View dashboards_audit.penalty_stats (the audit role only): the penalty statistics, by
-- director too.
SELECT * FROM penalty_stats
