-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO events BY NAME SELECT * FROM incoming;
