SELECT * FROM contestants;
