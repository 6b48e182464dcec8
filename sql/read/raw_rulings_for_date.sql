SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date)
FROM raw_rulings WHERE session_date = $session_date ORDER BY file, rowid;
