-- The fingerprint of each session date's inputs, as the last reading of the inbox found them.
SELECT strftime(session_date, '%Y-%m-%d') AS session_date, fingerprint
FROM date_inputs
ORDER BY session_date;
