-- How many session dates are not computed from their current inputs: a date of the inbox
-- never computed or computed from other inputs, or a date computed and no longer in the inbox.
SELECT
    (SELECT count(*) FROM date_inputs AS i
     WHERE NOT EXISTS (SELECT 1 FROM dates_done AS d
                       WHERE d.session_date = i.session_date AND d.fingerprint = i.fingerprint))
  + (SELECT count(*) FROM dates_done AS d
     WHERE NOT EXISTS (SELECT 1 FROM date_inputs AS i WHERE i.session_date = d.session_date))
    AS not_done;
