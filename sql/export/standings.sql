-- Every version of the standings (older versions 'superseded'), for BI tools.
SELECT * FROM standings ORDER BY session_date, event_id, scope, session, version, section, rank;
