-- The analytics mart ruling_discrepancies (audit issue), exported as it is when present.
SELECT * FROM ruling_discrepancies;
