import RecordLog
import RecordStore

/// What the system partition says about the zones: which existed at a point, and which
/// incarnation (the offset of its latest `createZone`) each has now.
struct ZoneLifetimes {
    /// The zones live at the point, with their incarnation then.
    private(set) var liveAtPoint: [String: Int64] = [:]
    /// The zones live at the end of the log, with their incarnation.
    private(set) var liveNow: [String: Int64] = [:]

    /// Reads `system` whole; the point is the exclusive offset `cut`.
    init(system: Partition, cut: Int64) throws {
        var live: [String: Int64] = [:]
        var atPoint: [String: Int64]?
        try system.forEachRecord(from: system.startOffset) { event in
            if event.offset >= cut, atPoint == nil { atPoint = live }
            guard let name = event.keyString else { return true }
            switch StoredEvent.kind(of: event) {
            case .createZone?: live[name] = event.offset
            case .deleteZone?: live[name] = nil
            default: break
            }
            return true
        }
        liveAtPoint = atPoint ?? live
        liveNow = live
    }
}
