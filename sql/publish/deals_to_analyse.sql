-- The deals (cards, dealer, vulnerability) not analysed yet: each once.
SELECT DISTINCT d.north, d.east, d.south, d.west, d.dealer, d.vulnerability
FROM deals AS d
ANTI JOIN deal_analysis AS a
    USING (north, east, south, west, dealer, vulnerability);
