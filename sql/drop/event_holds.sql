-- Dropped when the table definitions change (the warehouse is rebuilt from the inbox).
DROP TABLE IF EXISTS event_holds;
