-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO source_files BY NAME SELECT * FROM incoming;
