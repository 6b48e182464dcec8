-- The marts' counts per season agree with the rulings and appeals tables they come from.
WITH seasons AS (
    SELECT strftime(session_date, '%Y') AS period, count(*) AS n,
           count(*) FILTER (WHERE kind IN ('procedural_penalty', 'disciplinary_penalty')) AS p
    FROM rulings GROUP BY ALL
),
appeal_seasons AS (
    SELECT strftime(session_date, '%Y') AS period, count(*) AS n FROM appeals GROUP BY ALL
),
audit AS (
    SELECT period, sum(rulings) AS rulings, sum(appeals_against) AS appeals
    FROM director_audit
    WHERE period_kind = 'season' AND measure = 'adjustment_rate'
    GROUP BY ALL
),
penalties AS (
    SELECT period, sum(penalties) AS n FROM penalty_stats
    WHERE period_kind = 'season' AND dimension = 'all' AND category = 'all'
    GROUP BY ALL
),
appealed AS (
    SELECT period, appeals AS n FROM appeal_stats
    WHERE period_kind = 'season' AND dimension = 'all'
)
SELECT 'director_audit.rulings' AS what, s.period, coalesce(a.rulings, 0) AS mart, s.n AS source
FROM seasons s LEFT JOIN audit a USING (period)
WHERE coalesce(a.rulings, 0) <> s.n
UNION ALL
SELECT 'penalty_stats.penalties', s.period, coalesce(p.n, 0), s.p
FROM seasons s LEFT JOIN penalties p USING (period)
WHERE coalesce(p.n, 0) <> s.p
UNION ALL
SELECT 'appeal_stats.appeals', s.period, coalesce(x.n, 0), s.n
FROM appeal_seasons s LEFT JOIN appealed x USING (period)
WHERE coalesce(x.n, 0) <> s.n
UNION ALL
SELECT 'director_audit.appeals_against', s.period, coalesce(a.appeals, 0), s.n
FROM appeal_seasons s LEFT JOIN audit a USING (period)
WHERE coalesce(a.appeals, 0) <> s.n;
