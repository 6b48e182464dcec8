-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO director_audit BY NAME SELECT * FROM incoming;
