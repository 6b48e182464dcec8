-- Every deal (hand record) with its double-dummy table and par where analysed.
SELECT
    d.event_id, d.session, d.section, d.board, d.dealer, d.vulnerability,
    d.north, d.east, d.south, d.west,
    a.* EXCLUDE (north, east, south, west, dealer, vulnerability)
FROM deals AS d
LEFT JOIN deal_analysis AS a
    USING (north, east, south, west, dealer, vulnerability)
WHERE d.event_id IN (SELECT UNNEST($events::VARCHAR[]))  -- the events whose pages are made
ORDER BY d.event_id, d.session, d.section NULLS FIRST, d.board;
