-- reconciliation.on_difference: a session whose file's official figures differ is shown
-- 'provisional' (never final) or 'held' (not published) until the file is corrected.
UPDATE standings SET status = $status
WHERE scope = 'session' AND event_id = $event_id AND session = $session
  AND status IN ('final', 'provisional');
