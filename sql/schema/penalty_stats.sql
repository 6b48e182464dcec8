-- Mart: procedural (Law 90) and disciplinary (Law 91) penalties by period and dimension
-- (pipelines/audit/marts.py). Stable names: dashboards read this table.
CREATE TABLE IF NOT EXISTS penalty_stats (
    period_kind                VARCHAR NOT NULL,   -- season (calendar year) | month
    period                     VARCHAR NOT NULL,   -- 2026 | 2026-11
    dimension                  VARCHAR NOT NULL,   -- all | event | event_type | level | club | director | law
    value                      VARCHAR,            -- the event id, form/scoring, level, club, director or law cited
    penalty_kind               VARCHAR NOT NULL,   -- procedural | disciplinary
    category                   VARCHAR NOT NULL,   -- all, or the item of the law cited: B1..B8 (90B), A (91A), other
    penalties                  BIGINT NOT NULL,    -- warnings included
    warnings                   BIGINT NOT NULL,
    sanctions                  BIGINT NOT NULL,    -- suspended | disqualified (Law 91B)
    late                       BIGINT NOT NULL,    -- given after the period: not applied (79C)
    matchpoints_deducted       DOUBLE NOT NULL,    -- from the adjustments table (role penalized)
    percentage_points_deducted DOUBLE NOT NULL,
    imps_deducted              DOUBLE NOT NULL,    -- IMP forms
    vps_deducted               DOUBLE NOT NULL,    -- teams VP penalties
    boards_played              BIGINT NOT NULL,    -- table results of the slice (law: of the period)
    per_1000_boards            DOUBLE              -- penalties per 1,000 boards played
);
