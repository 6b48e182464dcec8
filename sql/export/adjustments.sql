-- What each applied ruling changed, per contestant (official version).
SELECT * FROM adjustments ORDER BY session_date, event_id, session, ruling_id, contestant;
