-- View dashboards_audit.appeal_stats (the audit role only): the appeal statistics, by
-- director too.
SELECT * FROM appeal_stats
