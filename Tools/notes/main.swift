print("notes: coming")
