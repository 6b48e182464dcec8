-- The whole mart is recomputed each run.
DELETE FROM director_audit;
