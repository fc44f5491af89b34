/// The live records of one zone, folded from its events.
struct LiveRecords {
    private(set) var byName: [String: LiveRecord] = [:]

    mutating func apply(_ event: ZoneEvent) {
        if let record = event.record {
            byName[event.recordName] = LiveRecord(zone: event.zone, record: record, offset: event.offset, timestamp: event.timestamp)
        } else {
            byName[event.recordName] = nil
        }
    }

    /// The records by name.
    var sorted: [LiveRecord] {
        byName.values.sorted { $0.recordName < $1.recordName }
    }
}
