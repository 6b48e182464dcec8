-- The inbox fingerprint each step last completed for (steps inbox, audit, publish).
SELECT step, fingerprint FROM pipeline_state ORDER BY step;
