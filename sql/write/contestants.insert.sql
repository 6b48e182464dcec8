-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO contestants BY NAME SELECT * FROM incoming;
