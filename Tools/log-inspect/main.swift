print("log-inspect: coming")
