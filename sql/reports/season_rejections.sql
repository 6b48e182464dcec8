-- Rejected inputs per club: a rejected row belongs to the club(s) of the events its file
-- holds (raw_results, the event's club or its id's prefix); a file none of whose rows could
-- be dated is 'unattributed'.
WITH file_club AS (
    SELECT DISTINCT r.file, coalesce(e.club, split_part(r.event_id, '-', 1)) AS club
    FROM raw_results AS r
    LEFT JOIN (SELECT DISTINCT event_id, club FROM events) AS e USING (event_id)
    WHERE r.event_id IS NOT NULL
),
rejected AS (
    SELECT DISTINCT file, location, stage FROM rejected_inputs
)
SELECT coalesce(fc.club, 'unattributed') AS club, r.stage, count(*) AS rejected
FROM rejected AS r
LEFT JOIN file_club AS fc USING (file)
GROUP BY ALL
ORDER BY club, r.stage;
