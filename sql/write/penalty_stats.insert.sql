-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO penalty_stats BY NAME SELECT * FROM incoming;
