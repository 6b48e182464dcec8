-- View dashboards_audit.director_audit (the audit role only): the director-consistency
-- audit, one row per period, stratum, director and rate, with its funnel limits.
SELECT * FROM director_audit
