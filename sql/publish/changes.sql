-- What each newer version of the standings changed, and why: the appeal (who heard it, its
-- outcome and note) or the score correction (its ruling's note) that caused it.
SELECT
    c.*,
    a.heard_by,
    a.outcome,
    a.note AS appeal_note,
    ru.kind AS ruling_kind,
    ru.laws AS ruling_laws,
    ru.note AS ruling_note,
    ru.board AS ruling_board
FROM standings_changes AS c
LEFT JOIN appeals AS a ON c.cause = 'appeal' AND a.appeal_id = c.cause_id
    AND a.event_id = c.event_id
LEFT JOIN rulings AS ru ON ru.ruling_id = c.ruling_id AND ru.event_id = c.event_id
ORDER BY c.event_id, c.scope, c.session, c.version, c.section, c.contestant;
