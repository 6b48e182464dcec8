-- The analytics mart penalty_stats (analytics issue), exported as it is when the warehouse has it.
SELECT * FROM penalty_stats;
