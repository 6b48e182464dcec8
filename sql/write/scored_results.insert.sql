-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO scored_results BY NAME SELECT * FROM incoming;
