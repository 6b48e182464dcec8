-- The whole table is recomputed each run.
DELETE FROM reconciliation_files;
