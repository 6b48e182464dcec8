-- View dashboards_audit.ruling_discrepancies (the audit role only): pairs of rulings by
-- different directors with materially different outcomes; the directors' own notes stay in
-- the audit report.
SELECT * EXCLUDE (a_note, b_note) FROM ruling_discrepancies
