-- Warnings are found while reading the inbox and rewritten on every scan.
DELETE FROM input_warnings;
