-- Every rate, target, limit and shrunken rate of the marts lies within [0, 1].
SELECT 'director_audit' AS mart, director AS slice, measure, name, value
FROM (
    UNPIVOT director_audit
    ON rate, target, lower95, upper95, lower998, upper998, lower95_widened, upper95_widened,
       lower998_widened, upper998_widened, shrunk_rate, shrunk_lower, shrunk_upper
    INTO NAME name VALUE value
)
WHERE value < 0 OR value > 1 OR isnan(value)
UNION ALL
SELECT 'appeal_stats', dimension || '=' || coalesce(value, ''), period, 'overturn_rate', overturn_rate
FROM appeal_stats
WHERE overturn_rate < 0 OR overturn_rate > 1;
