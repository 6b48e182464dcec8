-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO ruling_discrepancies BY NAME SELECT * FROM incoming;
