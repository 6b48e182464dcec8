-- The fingerprint of the inputs each session date was last computed from.
SELECT strftime(session_date, '%Y-%m-%d') AS session_date, fingerprint
FROM dates_done
ORDER BY session_date;
