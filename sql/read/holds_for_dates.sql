-- Why events of the given dates are held back (one row per date, event and reason):
-- * a stated score that differs from the score of its contract (Law 77), held for its event;
-- * a ruling or appeal that could not be applied, held for the event it names (one that names
--   no event of its date it can be placed in holds every event of that date: it cannot be
--   placed);
-- * an event session whose details are not known (a rejected events.csv row, an unknown
--   column: event_holds), held for that session (every session when the row named none);
-- * two different results for a pair on a board (both rejected), and a ruling or appeal
--   rejected while reading (an id already used, no date: event_holds), held for their event.
WITH days AS (
    SELECT UNNEST($dates::DATE[]) AS session_date
), day_sessions AS (
    SELECT DISTINCT session_date, event_id, session FROM validated_results
    WHERE session_date IN (SELECT session_date FROM days)
), day_events AS (
    SELECT DISTINCT session_date, event_id FROM day_sessions
), details AS (
    SELECT DISTINCT d.session_date, h.event_id, h.file, h.location, h.field, h.reason
    FROM event_holds AS h
    JOIN day_sessions AS d
      ON d.event_id = h.event_id
     AND (h.session IS NULL OR CAST(d.session AS VARCHAR) = h.session)
), conflicts AS (
    -- two different results for a pair on a board: both rejected (field 'result')
    SELECT DISTINCT r.session_date, w.event_id, r.file, r.location, r.field, r.reason
    FROM rejected_inputs AS r
    JOIN raw_results AS w
      ON w.session_date = r.session_date AND w.file = r.file AND w.location = r.location
    WHERE r.stage = 'validate' AND r.session_date IN (SELECT session_date FROM days)
      AND r.field = 'result'
), disagreements AS (
    SELECT session_date, event_id, file, location, 'score' AS field,
           'stated score ' || stated_score || ' but ' || contract || ' by '
           || coalesce(declarer, '?') || ' taking ' || coalesce(CAST(tricks AS VARCHAR), '?')
           || ' tricks on board ' || board || ' scores ' || computed_score
           || ' for NS (Law 77): correct the file' AS reason
    FROM validated_results
    WHERE session_date IN (SELECT session_date FROM days) AND score_agrees = false
), logs AS (
    SELECT session_date, file, location, event_id FROM raw_rulings
    WHERE session_date IN (SELECT session_date FROM days)
    UNION ALL
    SELECT session_date, file, location, event_id FROM raw_appeals
    WHERE session_date IN (SELECT session_date FROM days)
), ruling_rows AS (
    SELECT DISTINCT r.session_date, r.file, r.location, r.field, r.reason, l.event_id
    FROM rejected_inputs AS r
    LEFT JOIN logs AS l
      ON l.session_date = r.session_date AND l.file = r.file AND l.location = r.location
    WHERE r.stage = 'rulings' AND r.session_date IN (SELECT session_date FROM days)
), rulings_held AS (
    SELECT d.session_date, d.event_id, r.file, r.location, r.field,
           'ruling or appeal not applied: ' || r.reason AS reason
    FROM ruling_rows AS r
    JOIN day_events AS d
      ON d.session_date = r.session_date
     AND (r.event_id = d.event_id OR r.event_id IS NULL
          OR r.event_id NOT IN (SELECT event_id FROM day_events AS e
                                WHERE e.session_date = r.session_date))
)
SELECT * FROM (
    SELECT * FROM disagreements
    UNION ALL SELECT * FROM rulings_held
    UNION ALL SELECT * FROM details
    UNION ALL SELECT * FROM conflicts
)
ORDER BY session_date, event_id, file, location, field;
