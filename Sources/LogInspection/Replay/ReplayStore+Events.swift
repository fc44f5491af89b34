import RecordLog

extension ReplayStore {
    /// Calls `body` with every save and delete of `zone` in `from..<to`, in offset order.
    package func forEachEvent(
        zone: String, from: Int64, to: Int64, progress: ProgressTracker? = nil, _ body: (ZoneEvent) throws(ReplayError) -> Void
    ) throws(ReplayError) {
        guard from < to else { return }
        let partition = try partition(zone)
        try reading(zone) {
            try partition.forEachRecord(from: from, to: to) { record in
                progress?.step()
                if let event = try ZoneEvent(record, zone: zone) { try body(event) }
                return true
            }
        }
    }
}
