-- Per file carrying official figures: how many were compared, reproduced, differ, could not
-- be compared; and whether its sessions are held (profile reconciliation.on_difference).
CREATE TABLE IF NOT EXISTS reconciliation_files (
    file           VARCHAR NOT NULL,
    event_id       VARCHAR,
    profile        VARCHAR,
    compared       BIGINT NOT NULL,
    reproduced     BIGINT NOT NULL,
    differing      BIGINT NOT NULL,
    unexplained    BIGINT NOT NULL,
    not_comparable BIGINT NOT NULL,
    running_totals BOOLEAN NOT NULL,  -- the official totals are the event's running totals
    on_difference  VARCHAR,           -- report | provisional | hold (the profile's setting)
    action         VARCHAR NOT NULL   -- published | provisional | held (its sessions' standings)
);
