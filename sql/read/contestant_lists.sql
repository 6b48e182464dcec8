-- The contestant rows that list every contestant of their event (pipelines/scoring/
-- completeness.py, LIST_FORMATS): contestants*.csv, a USEBIO file's PARTICIPANTS, a PBN
-- TotalScoreTable. A Bridgemate file's PlayerNumbers name only the players entered, so they
-- are no list (its results are checked against its RoundData by its reader).
SELECT c.event_id, c.contestant, c.direction, c.section
FROM contestants AS c
JOIN source_files AS f USING (file)
WHERE f.format IN ('contestants_csv', 'usebio', 'pbn');
