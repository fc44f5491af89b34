import RecordStore

/// The harness's materialized view: every harness record, by zone and name, as a ``StoreModel``
/// holds it. Its snapshot is JSON (FORMAT.md §12), so every store the harnesses write has one,
/// and every harness checks it: after a kill, a power cut or a flipped byte, a registered view
/// must equal what the log holds — built from its snapshot and the events after it, or, when the
/// snapshot is damaged, replayed from the log.
package struct ItemsView: MaterializedView {
    package static let name = "harness-items"

    /// Zones by name, each with its records; a zone without records is absent (a view sees no
    /// zone being created).
    package private(set) var zones: [String: [String: StoreModel.Item]] = [:]

    package init() {}

    package mutating func apply(_ event: ViewEvent) {
        switch event {
        case .saved(let record):
            let id = record.recordID
            // A record without the harness's fields is left out: the check against the log,
            // which reads them, then tells the difference.
            guard record.recordType == StoreModel.recordType, case .int64(let step)? = record["step"],
                case .string(let text)? = record["text"]
            else { return }
            zones[id.zoneID.zoneName, default: [:]][id.recordName] = StoreModel.Item(step: step, text: text)
        case .deleted(let id, _):
            zones[id.zoneID.zoneName]?[id.recordName] = nil
            if zones[id.zoneID.zoneName]?.isEmpty == true { zones[id.zoneID.zoneName] = nil }
        case .zoneDeleted(let zone):
            zones[zone.zoneName] = nil
        }
    }

    /// What differs between this view and `model`, read from the log; nil when they agree.
    package func differences(from model: StoreModel) -> String? {
        let records = model.zones.filter { !$0.value.isEmpty }
        guard zones != records else { return nil }
        return StoreModel(zones: records).differences(from: StoreModel(zones: zones))
    }
}
