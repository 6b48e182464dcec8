-- What each event's pages and export files are made from, as one key per event: every date it
-- has a session on (date_events, as the inbox was last read) with the fingerprint of the inputs
-- that date was computed from and the hash of what it wrote (dates_done: its results, rulings,
-- appeals, events.csv, contestants and holds; its standings, changes and holds), and its hand
-- records. The same key as at the last publication: the event's pages and files would come
-- out the same, so they are kept as they are, not read, rendered or written again.
WITH days AS (
    SELECT e.event_id,
           string_agg(strftime(e.session_date, '%Y-%m-%d') || ':' || coalesce(d.fingerprint, '')
                      || ':' || coalesce(d.output, ''), ',' ORDER BY e.session_date) AS days
    FROM (SELECT DISTINCT event_id, session_date FROM date_events) AS e
    LEFT JOIN dates_done AS d USING (session_date)
    GROUP BY e.event_id
), hands AS (
    SELECT event_id,
           md5(string_agg(concat_ws('|', session, section, board, dealer, vulnerability,
                                    north, east, south, west), ','
                          ORDER BY session, section, board, north, east, south, west)) AS hands
    FROM deals
    GROUP BY event_id
)
SELECT days.event_id, md5(days.days || '#' || coalesce(hands.hands, '')) AS made_from
FROM days LEFT JOIN hands USING (event_id)
ORDER BY days.event_id;
