-- Why events of the given dates are held back (one row per date, event and reason):
-- * a stated score that differs from the score of its contract (Law 77), held for its event;
-- * a ruling or appeal that could not be applied, held for the event it names (one that names
--   no event of its date it can be placed in holds every event of that date: it cannot be
--   placed);
-- * an event session whose details are not known (a rejected events.csv row, an unknown
--   column: event_holds), held for that session (every session when the row named none);
-- * a result row rejected at validation (two different results for a pair on a board, a
--   pair its event's list does not know, a value that is no result ...): the standings would
--   miss that table's result, so its event is held — unless the same table's result stands
--   (one result sent twice: the repeat is rejected, the first kept);
-- * a line of a results file that could not be read as a row (field 'row': more or fewer
--   values than its header, a PBN table row after a blank line; it names no event, being no
--   row at all): the file's standings would miss what the line held, so every event the
--   file gives results to on the date is held (a value rejected while reading, such as an
--   ambiguous date, holds its event through event_holds);
-- * a session that misses part of its movement (incomplete_sessions: a contestant that is no
--   part of it, a board mostly missing, a round missing tables, boards or contestants other
--   than the event states; pipelines/scoring/completeness.py), held for its event;
-- * a ruling or appeal rejected while reading (an id already used, no date: event_holds),
--   held for its event.
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
), rejected_results AS (
    -- a result row rejected at validation whose table has no result standing; two different
    -- results for a pair on a board (field 'result') already say that the event is held
    SELECT DISTINCT r.session_date, w.event_id, r.file, r.location, r.field,
           CASE WHEN r.field = 'result' THEN r.reason
                ELSE 'the standings would miss this result, rejected: ' || r.reason
           END AS reason
    FROM rejected_inputs AS r
    JOIN raw_results AS w
      ON w.session_date = r.session_date AND w.file = r.file AND w.location = r.location
    JOIN day_events AS d ON d.session_date = w.session_date AND d.event_id = w.event_id
    WHERE r.stage = 'validate' AND r.session_date IN (SELECT session_date FROM days)
      AND NOT EXISTS (
          SELECT 1 FROM validated_results AS v
          WHERE v.session_date = w.session_date
            AND v.event_id = w.event_id
            AND v.session = TRY_CAST(w.session AS BIGINT)
            AND coalesce(v.section, '') = coalesce(w.section, '')
            AND v.board = TRY_CAST(w.board AS BIGINT)
            AND (w.ns_pair IS NULL OR v.ns_pair = w.ns_pair)
            AND (w.ew_pair IS NULL OR v.ew_pair = w.ew_pair)
            AND (w.north IS NULL OR v.north = w.north)
            AND (w.south IS NULL OR v.south = w.south)
            AND (w.east IS NULL OR v.east = w.east)
            AND (w.west IS NULL OR v.west = w.west)
      )
), unread_rows AS (
    SELECT DISTINCT f.session_date, f.event_id, r.file, r.location, r.field,
           'the standings may miss a result of this file, a row of it not read: ' || r.reason
           AS reason
    FROM rejected_inputs AS r
    JOIN (SELECT DISTINCT session_date, event_id, file FROM raw_results
          WHERE session_date IN (SELECT session_date FROM days)) AS f
      ON f.file = r.file
    JOIN day_events AS d ON d.session_date = f.session_date AND d.event_id = f.event_id
    WHERE r.stage = 'read' AND r.location <> 'file' AND r.field = 'row'
), incomplete AS (
    SELECT session_date, event_id, file, location, field, reason
    FROM incomplete_sessions WHERE session_date IN (SELECT session_date FROM days)
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
    UNION ALL SELECT * FROM rejected_results
    UNION ALL SELECT * FROM unread_rows
    UNION ALL SELECT * FROM incomplete
)
ORDER BY session_date, event_id, file, location, field;
