-- View dashboards.appeal_stats (the public dashboards' role): the appeal statistics and the
-- Board-Appeal Ratio by period, event, event type, level, club and law; not by director.
SELECT * FROM appeal_stats WHERE dimension <> 'director'
