-- Session dates whose standings time alone may change: a newest session standing still
-- provisional (the correction period of Law 79C or the appeal period of Law 92B may have
-- ended since, an appeal may be pending). Sessions that a club file's differences keep
-- provisional (reconciliation.on_difference = 'provisional') do not count: only a corrected
-- file changes them.
SELECT DISTINCT strftime(s.session_date, '%Y-%m-%d') AS session_date
FROM standings AS s
WHERE s.scope = 'session'
  AND s.status = 'provisional'
  AND NOT EXISTS (
      SELECT 1
      FROM reconciliation_files AS f
      JOIN scored_results AS r ON r.file = f.file
      WHERE f.action = 'provisional' AND r.event_id = s.event_id AND r.session = s.session)
ORDER BY session_date;
