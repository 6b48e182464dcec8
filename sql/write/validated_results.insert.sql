-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO validated_results BY NAME SELECT * FROM incoming;
