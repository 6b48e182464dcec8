-- Rulings and appeals kept but not applied, with the reason (late, Laws 79C / 92B; withdrawn
-- on appeal; an appeal the Laws do not allow, 93B3; ...), for the command line's summary.
SELECT 'ruling' AS what, ruling_id AS id, event_id, session, file, location, not_applied_reason AS reason
FROM rulings WHERE NOT applies
UNION ALL
SELECT 'appeal', appeal_id, event_id, session, file, location, not_applied_reason
FROM appeals WHERE NOT applies
ORDER BY event_id, session, what DESC, id;
