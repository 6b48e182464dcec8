-- Before the new deals' analyses are added: drop the analyses of deals no file holds any more
-- (a deal analysed once stays while some file carries it).
DELETE FROM deal_analysis AS a
WHERE NOT EXISTS (
    SELECT 1 FROM deals AS d
    WHERE d.north = a.north AND d.east = a.east AND d.south = a.south AND d.west = a.west
      AND d.dealer = a.dealer AND d.vulnerability = a.vulnerability
);
