-- What each newer version of the standings changed, and why: the appeal (who heard it, its
-- outcome and public note) or the score correction (its ruling's public note) that caused it.
-- The director's and the committee's own note is never selected: only public_note.
SELECT
    c.*,
    a.heard_by,
    a.outcome,
    a.public_note AS appeal_public_note,
    ru.kind AS ruling_kind,
    ru.laws AS ruling_laws,
    ru.public_note AS ruling_public_note,
    ru.board AS ruling_board
FROM standings_changes AS c
LEFT JOIN appeals AS a ON c.cause = 'appeal' AND a.appeal_id = c.cause_id
    AND a.event_id = c.event_id
LEFT JOIN rulings AS ru ON ru.ruling_id = c.ruling_id AND ru.event_id = c.event_id
WHERE c.event_id IN (SELECT UNNEST($events::VARCHAR[]))  -- the events whose pages are made
ORDER BY c.event_id, c.scope, c.session, c.version, c.section, c.contestant,
         c.direction NULLS FIRST, c.cause_id;
