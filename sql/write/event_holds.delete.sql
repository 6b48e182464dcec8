-- Found while reading the inbox and rewritten on every scan.
DELETE FROM event_holds;
