-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO input_warnings BY NAME SELECT * FROM incoming;
