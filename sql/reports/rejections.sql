-- Every rejection, in file order, as the command line prints them.
SELECT file, location, field, reason, stage, strftime(session_date, '%Y-%m-%d') AS session_date
FROM rejected_inputs
ORDER BY file, stage, location, field;
