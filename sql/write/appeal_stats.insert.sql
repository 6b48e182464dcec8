-- Append the incoming frame (registered as 'incoming'), matching columns by name.
INSERT INTO appeal_stats BY NAME SELECT * FROM incoming;
