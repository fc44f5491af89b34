// Placeholder until the first RecordStore file lands.
