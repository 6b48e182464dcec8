-- The run summary's profiles: how many event sessions each profile scores, and why it was chosen.
SELECT profile, profile_source, count(*) AS sessions
FROM events
GROUP BY profile, profile_source
ORDER BY profile, profile_source;
