-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO standings_changes BY NAME SELECT * FROM incoming;
