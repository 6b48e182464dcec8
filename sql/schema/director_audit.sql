-- Mart: the director-consistency audit (pipelines/audit/marts.py, funnel.py, shrinkage.py).
-- One row per period, comparison stratum, director and rate. No ranks, by design.
CREATE TABLE IF NOT EXISTS director_audit (
    period_kind             VARCHAR NOT NULL,  -- season (calendar year) | window (a report's dates)
    period                  VARCHAR NOT NULL,
    stratum                 VARCHAR NOT NULL,  -- the values of the controls, e.g. club · pairs · matchpoints
    controls                VARCHAR NOT NULL,  -- the controls applied: level, form, scoring
    director                VARCHAR NOT NULL,
    sessions_directed       BIGINT NOT NULL,   -- sessions whose event names him director
    boards_directed         BIGINT NOT NULL,   -- table results of those sessions
    rulings                 BIGINT NOT NULL,   -- rulings he gave (any session of the stratum)
    rulings_per_1000_boards DOUBLE,            -- at the sessions he directed
    score_stands            BIGINT NOT NULL,   -- mix of ruling kinds
    assigned                BIGINT NOT NULL,
    weighted                BIGINT NOT NULL,
    artificial              BIGINT NOT NULL,
    director_error          BIGINT NOT NULL,
    fouled_board            BIGINT NOT NULL,
    procedural_penalty      BIGINT NOT NULL,
    disciplinary_penalty    BIGINT NOT NULL,
    score_correction        BIGINT NOT NULL,
    imp_award               BIGINT NOT NULL,   -- teams: IMP awards (Law 86B1; 2007 86D)
    appeals_against         BIGINT NOT NULL,
    appeals_decided         BIGINT NOT NULL,
    mean_adjustment_pct     DOUBLE,            -- mean size of his adjusted scores, % of a top (MP)
    mean_adjustment_imps    DOUBLE,            -- the same in IMPs (IMP forms)
    measure                 VARCHAR NOT NULL,  -- rulings_per_board | adjustment_rate | procedural_penalty_rate | overturn_rate
    x                       BIGINT NOT NULL,   -- events
    n                       BIGINT NOT NULL,   -- opportunities
    rate                    DOUBLE,            -- x / n (null when n = 0)
    target                  DOUBLE,            -- pooled rate of the stratum
    lower95                 DOUBLE,            -- exact binomial funnel limits (Spiegelhalter 2005)
    upper95                 DOUBLE,
    lower998                DOUBLE,
    upper998                DOUBLE,
    phi                     DOUBLE,            -- over-dispersion factor (winsorised z^2 mean)
    over_dispersed          BOOLEAN,           -- k phi above chi-squared(k) 95 %
    lower95_widened         DOUBLE,            -- limits widened by sqrt(phi)
    upper95_widened         DOUBLE,
    lower998_widened        DOUBLE,
    upper998_widened        DOUBLE,
    shrunk_rate             DOUBLE,            -- empirical-Bayes beta-binomial posterior mean
    shrunk_lower            DOUBLE,            -- its 95 % interval
    shrunk_upper            DOUBLE,
    flagged                 BOOLEAN,           -- outside the 99.8 % limits in force (and tail < 0.1 %)
    flag_direction          VARCHAR            -- high | low
);
