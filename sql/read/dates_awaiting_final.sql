-- Session dates whose standings time alone changes by $now: a newest session standing still
-- provisional whose correction and appeal periods (Laws 79C, 92B) have ended by $now
-- (``final_at``). A standing that waits for an input (a pending appeal, a disqualification
-- not yet approved: ``final_at`` null) is not due by time: only that input changes it.
-- Sessions that a club file's differences keep provisional (reconciliation.on_difference =
-- 'provisional') do not count either: only a corrected file changes them.
SELECT DISTINCT strftime(s.session_date, '%Y-%m-%d') AS session_date
FROM standings AS s
WHERE s.scope = 'session'
  AND s.status = 'provisional'
  AND s.final_at IS NOT NULL
  AND s.final_at <= $now::TIMESTAMP
  AND NOT EXISTS (
      SELECT 1
      FROM reconciliation_files AS f
      JOIN scored_results AS r ON r.file = f.file
      WHERE f.action = 'provisional' AND r.event_id = s.event_id AND r.session = s.session)
ORDER BY session_date;
