-- Per session date computed: the fingerprint of its inputs and the hash of what it wrote
-- (what the audit and the publication are computed from, with the inbox's content).
SELECT strftime(session_date, '%Y-%m-%d') AS session_date, fingerprint, output
FROM dates_done
ORDER BY session_date;
