-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO rejected_inputs BY NAME SELECT * FROM incoming;
