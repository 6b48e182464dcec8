-- Rejections made while reading the inbox (stage 'read') are rewritten on every scan.
DELETE FROM rejected_inputs WHERE stage = 'read';
