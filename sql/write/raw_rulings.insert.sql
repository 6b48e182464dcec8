-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO raw_rulings BY NAME SELECT * FROM incoming;
