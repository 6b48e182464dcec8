-- Per file: official figures compared, reproduced, differing, unexplained, not comparable.
SELECT * FROM reconciliation_files ORDER BY file;
