-- Every warning, in file order, as the command line prints them.
SELECT file, location, field, reason FROM input_warnings ORDER BY file, location, field;
