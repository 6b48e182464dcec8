-- The whole mart is recomputed each run.
DELETE FROM penalty_stats;
