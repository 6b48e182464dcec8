-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO matches BY NAME SELECT * FROM incoming;
