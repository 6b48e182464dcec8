-- Every accepted appeal (Laws 92, 93).
SELECT * FROM appeals ORDER BY session_date, event_id, session, appeal_id;
