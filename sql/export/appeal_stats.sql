-- The analytics mart appeal_stats (analytics issue), exported as it is when the warehouse has it.
SELECT * FROM appeal_stats;
