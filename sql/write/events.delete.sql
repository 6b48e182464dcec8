-- Reference table rewritten whole on every scan of the inbox.
DELETE FROM events;
