-- The whole mart is recomputed each run.
DELETE FROM appeal_stats;
