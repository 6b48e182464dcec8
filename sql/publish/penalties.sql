-- Procedural and disciplinary penalties in effect (Laws 90, 91), for the ranking pages, with
-- the public note (never the director's own note).
SELECT event_id, session, section, ruling_id, kind, laws, penalized, penalized_direction,
       penalty, public_note, appeal_outcome
FROM rulings
WHERE kind IN ('procedural_penalty', 'disciplinary_penalty') AND applies
  AND event_id IN (SELECT UNNEST($events::VARCHAR[]))  -- the events whose pages are made
ORDER BY event_id, session, ruling_id;
