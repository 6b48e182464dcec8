-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO reconciliation BY NAME SELECT * FROM incoming;
