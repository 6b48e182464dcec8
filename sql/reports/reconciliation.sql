-- Every official figure Traveller does not reproduce, with both values and the reason.
SELECT file, event_id, session, section, board, contestant, direction, what, official,
       traveller, code, explanation, location
FROM reconciliation
ORDER BY file, what = 'line' OR what = 'imps' DESC, try_cast(board AS INTEGER), contestant, what;
