-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO appeals BY NAME SELECT * FROM incoming;
