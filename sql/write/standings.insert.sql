-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO standings BY NAME SELECT * FROM incoming;
