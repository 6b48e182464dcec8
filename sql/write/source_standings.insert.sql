-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO source_standings BY NAME SELECT * FROM incoming;
