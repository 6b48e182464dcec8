-- The deals (cards, dealer, vulnerability) not analysed yet: each once.
SELECT DISTINCT d.north, d.east, d.south, d.west, d.dealer, d.vulnerability
FROM deals AS d
WHERE NOT EXISTS (
    SELECT 1 FROM deal_analysis AS a
    WHERE a.north = d.north AND a.east = d.east AND a.south = d.south AND a.west = d.west
      AND a.dealer = d.dealer AND a.vulnerability = d.vulnerability
);
