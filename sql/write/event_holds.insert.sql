-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO event_holds BY NAME SELECT * FROM incoming;
