-- View dashboards.standings (the public dashboards' role): the official standings as
-- published — the newest version of every session and event standing, neither superseded nor
-- held back — with names, never membership numbers.
SELECT
    event_id, scope, session, session_date, section, contestant, direction, names, boards,
    score, top, percentage, unit, penalties, penalty_unit, vp_penalties, sanction, rank, tied,
    tiebreak, score_display, percentage_display, movement, profile, version, status, final_at
FROM standings
WHERE status NOT IN ('superseded', 'held')
