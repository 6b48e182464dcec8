-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO adjustments BY NAME SELECT * FROM incoming;
