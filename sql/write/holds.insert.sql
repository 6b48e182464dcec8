-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO holds BY NAME SELECT * FROM incoming;
