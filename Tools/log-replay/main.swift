print("log-replay: coming")
