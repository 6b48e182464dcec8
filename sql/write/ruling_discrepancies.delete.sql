-- The whole mart is recomputed each run.
DELETE FROM ruling_discrepancies;
