-- One row per event session with official standings: its club (the event's club, by default
-- its id up to the first '-'), month, form, scoring, tables, contestants, results, adjusted
-- results, penalties and appeals. The season dashboard and its mart.
-- Tables, section by section: those its results name where every result names one; else as
-- many as seat the section's contestants ranked, four players to a table (a pair two, a
-- team four on its two tables, an individual's player one), the last table counted even
-- when it is not full. (A Howell's pairs change direction, so the pairs sitting north-south
-- over a session are not its tables.)
WITH sessions AS (
    SELECT event_id, session, date, coalesce(club, split_part(event_id, '-', 1)) AS club,
           strftime(date, '%Y-%m') AS month, form, scoring
    FROM events
),
results AS (
    SELECT event_id, session,
           count(*) AS results,
           count(*) FILTER (WHERE adjustment IN ('assigned', 'weighted', 'artificial',
                 'director_error', 'fouled_board', 'score_correction')
                 OR kind IN ('artificial', 'adjusted')) AS adjusted_results
    FROM scored_results
    GROUP BY ALL
),
numbered AS (
    SELECT event_id, session, section,
           count(*) = count("table") AS by_number,
           count(DISTINCT "table") AS numbered
    FROM scored_results
    GROUP BY ALL
),
seated AS (
    SELECT event_id, session, section, count(*) AS ranked
    FROM standings
    WHERE scope = 'session' AND status NOT IN ('superseded', 'held')  -- held: not published
    GROUP BY ALL
),
tabled AS (
    SELECT n.event_id, n.session,
           sum(CASE WHEN n.by_number THEN n.numbered
                    ELSE CAST(ceil(coalesce(t.ranked, 0)
                                   * (CASE s.form WHEN 'individual' THEN 1
                                                  WHEN 'teams' THEN 4 ELSE 2 END)
                                   / 4.0) AS BIGINT)
               END) AS tables
    FROM numbered AS n
    JOIN sessions AS s USING (event_id, session)
    LEFT JOIN seated AS t USING (event_id, session, section)
    GROUP BY ALL
),
field AS (
    SELECT event_id, session, count(*) AS contestants
    FROM standings
    WHERE scope = 'session' AND status NOT IN ('superseded', 'held')  -- held: not published
    GROUP BY ALL
),
pens AS (
    SELECT event_id, session, count(*) AS penalties
    FROM rulings
    WHERE kind IN ('procedural_penalty', 'disciplinary_penalty') AND applies
    GROUP BY ALL
),
apps AS (
    SELECT event_id, session, count(*) AS appeals,
           count(*) FILTER (WHERE outcome IN ('changed', 'changed_one_side')) AS appeals_changed
    FROM appeals
    GROUP BY ALL
)
SELECT s.club, s.month, s.event_id, s.session, strftime(s.date, '%Y-%m-%d') AS date,
       s.form, s.scoring,
       CAST(tb.tables AS BIGINT) AS tables, f.contestants, r.results, r.adjusted_results,
       coalesce(p.penalties, 0) AS penalties,
       coalesce(a.appeals, 0) AS appeals,
       coalesce(a.appeals_changed, 0) AS appeals_changed
FROM sessions AS s
JOIN results AS r USING (event_id, session)
JOIN tabled AS tb USING (event_id, session)
JOIN field AS f USING (event_id, session)
LEFT JOIN pens AS p USING (event_id, session)
LEFT JOIN apps AS a USING (event_id, session)
ORDER BY s.date, s.club, s.event_id, s.session;
