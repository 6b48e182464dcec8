-- Why events of one date are held back (one row per reason):
-- * a stated score that differs from the score of its contract (Law 77), held for its event;
-- * a ruling or appeal that could not be applied, held for the event it names (one that names
--   no event it can be placed in holds every event of the date: it cannot be placed);
-- * an event session whose details are not known (a rejected events.csv row, an unknown
--   column: event_holds), held for that session (every session when the row named none);
-- * two different results for a pair on a board (both rejected), and a ruling or appeal
--   rejected while reading (an id already used, no date: event_holds), held for their event.
WITH day_events AS (
    SELECT DISTINCT event_id FROM validated_results WHERE session_date = $session_date
), day_sessions AS (
    SELECT DISTINCT event_id, session FROM validated_results WHERE session_date = $session_date
), details AS (
    SELECT DISTINCT h.event_id, h.file, h.location, h.field, h.reason
    FROM event_holds AS h
    JOIN day_sessions AS d
      ON d.event_id = h.event_id
     AND (h.session IS NULL OR CAST(d.session AS VARCHAR) = h.session)
), conflicts AS (
    -- two different results for a pair on a board: both rejected (field 'result')
    SELECT DISTINCT w.event_id, r.file, r.location, r.field, r.reason
    FROM rejected_inputs AS r
    JOIN raw_results AS w
      ON w.session_date = $session_date AND w.file = r.file AND w.location = r.location
    WHERE r.stage = 'validate' AND r.session_date = $session_date AND r.field = 'result'
), disagreements AS (
    SELECT event_id, file, location, 'score' AS field,
           'stated score ' || stated_score || ' but ' || contract || ' by '
           || coalesce(declarer, '?') || ' taking ' || coalesce(CAST(tricks AS VARCHAR), '?')
           || ' tricks on board ' || board || ' scores ' || computed_score
           || ' for NS (Law 77): correct the file' AS reason
    FROM validated_results
    WHERE session_date = $session_date AND score_agrees = false
), logs AS (
    SELECT file, location, event_id FROM raw_rulings WHERE session_date = $session_date
    UNION ALL
    SELECT file, location, event_id FROM raw_appeals WHERE session_date = $session_date
), ruling_rows AS (
    SELECT DISTINCT r.file, r.location, r.field, r.reason, l.event_id
    FROM rejected_inputs AS r
    LEFT JOIN logs AS l USING (file, location)
    WHERE r.stage = 'rulings' AND r.session_date = $session_date
), rulings_held AS (
    SELECT d.event_id, r.file, r.location, r.field,
           'ruling or appeal not applied: ' || r.reason AS reason
    FROM ruling_rows AS r
    JOIN day_events AS d ON r.event_id = d.event_id OR r.event_id IS NULL
       OR r.event_id NOT IN (SELECT event_id FROM day_events)
)
SELECT CAST($session_date AS DATE) AS session_date, * FROM (
    SELECT * FROM disagreements
    UNION ALL SELECT * FROM rulings_held
    UNION ALL SELECT * FROM details
    UNION ALL SELECT * FROM conflicts
)
ORDER BY event_id, file, location, field;
