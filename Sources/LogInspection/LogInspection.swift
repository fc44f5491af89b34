// The LogInspection module: see Inspect/ and Replay/.
