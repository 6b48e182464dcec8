-- The validated results of the given event sessions (keys 'event_id<US>session') on the given
-- session dates, in the order they were written.
SELECT * REPLACE (strftime(session_date, '%Y-%m-%d') AS session_date)
FROM validated_results
WHERE session_date IN (SELECT UNNEST($dates::DATE[]))
  AND event_id || chr(31) || CAST(session AS VARCHAR) IN (SELECT UNNEST($sessions::VARCHAR[]))
ORDER BY session_date, file, rowid;
