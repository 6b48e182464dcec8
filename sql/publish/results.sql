-- Every scored table result (the official, newest version) with the ruling that changed it:
-- its kind, Laws, effective results after appeals, the appeal that last changed it and the
-- ruling's public note (never the director's own note).
SELECT
    r.*,
    strftime(r.session_date, '%Y-%m-%d') AS date,
    ru.kind AS ruling_kind,
    ru.laws AS ruling_laws,
    ru.offending AS ruling_offending,
    ru.effective_ns_result,
    ru.effective_ew_result,
    ru.changed_on_appeal,
    ru.appeal_outcome,
    ru.public_note AS ruling_public_note
FROM scored_results AS r
LEFT JOIN rulings AS ru
    ON ru.session_date = r.session_date
    AND ru.event_id = r.event_id
    AND ru.session = r.session
    AND ru.ruling_id = r.ruling_id
WHERE r.event_id IN (SELECT UNNEST($events::VARCHAR[]))  -- the events whose pages are made
ORDER BY r.event_id, r.session, r.section, r.deal_round, r.board, r."table" NULLS LAST,
         r.ns_pair, r.ew_pair;
