-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO raw_appeals BY NAME SELECT * FROM incoming;
