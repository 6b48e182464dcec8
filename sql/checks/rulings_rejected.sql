-- Rulings and appeals of one date that could not be applied (they block its standings).
SELECT file, location, field, reason FROM rejected_inputs
WHERE stage = 'rulings' AND session_date = $session_date ORDER BY file, location;
