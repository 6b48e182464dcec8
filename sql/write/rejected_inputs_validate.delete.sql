-- Rejections made while validating one session date.
DELETE FROM rejected_inputs WHERE stage = 'validate' AND session_date = $session_date;
