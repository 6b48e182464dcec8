-- Each session date of the inbox and its number of table results (how much a range weighs).
SELECT strftime(session_date, '%Y-%m-%d') AS session_date, results
FROM date_inputs
ORDER BY session_date;
