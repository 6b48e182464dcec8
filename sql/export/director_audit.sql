-- The analytics mart director_audit (analytics issue), exported as it is when the warehouse has it.
SELECT * FROM director_audit;
