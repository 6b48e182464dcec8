-- Mart: appeals (Laws 92, 93) and the Board-Appeal Ratio by period and dimension
-- (pipelines/audit/marts.py). An appeal counts in the period and slice of its ruling.
CREATE TABLE IF NOT EXISTS appeal_stats (
    period_kind              VARCHAR NOT NULL,   -- season (calendar year) | month
    period                   VARCHAR NOT NULL,
    dimension                VARCHAR NOT NULL,   -- all | event | event_type | level | club | director | law
    value                    VARCHAR,
    appeals                  BIGINT NOT NULL,    -- lodged
    pending                  BIGINT NOT NULL,
    decided                  BIGINT NOT NULL,    -- upheld, changed, changed_one_side, referred_back
    upheld                   BIGINT NOT NULL,
    changed                  BIGINT NOT NULL,
    changed_one_side         BIGINT NOT NULL,
    withdrawn                BIGINT NOT NULL,
    referred_back            BIGINT NOT NULL,
    overturned               BIGINT NOT NULL,    -- changed + changed_one_side
    overturn_rate            DOUBLE,             -- overturned / decided
    late                     BIGINT NOT NULL,    -- lodged after the appeal period (Law 92B)
    not_allowed              BIGINT NOT NULL,    -- kept but not applied: late, 93B3, ...
    deposits_retained        BIGINT NOT NULL,
    without_merit            BIGINT NOT NULL,
    median_hours_to_decision DOUBLE,             -- from the ruling to the decision
    rulings                  BIGINT NOT NULL,    -- rulings of the slice
    late_rulings             BIGINT NOT NULL,    -- requested after the period (79C, 92B)
    boards_played            BIGINT NOT NULL,
    board_appeal_ratio       DOUBLE              -- appeals per 1,000 boards played (EBL)
);
