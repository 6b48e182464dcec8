-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO rulings BY NAME SELECT * FROM incoming;
