-- Rejections made while checking one session date's rulings and appeals.
DELETE FROM rejected_inputs WHERE stage = 'rulings' AND session_date = $session_date;
