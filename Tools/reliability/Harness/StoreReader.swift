import RecordStore

/// Reads what a store holds, as a ``StoreModel``: every zone, and every record of each through a
/// change fetch from the start, page by page (the path a syncing client takes).
///
/// It then checks that the harness's view (``ItemsView``) holds the same.
///
/// The pages cross the expiry offset of a zone whose compaction dropped deletes: their tokens
/// carry the zone's drop sequence (FORMAT.md §11.1). Before they did, such a fetch could not
/// finish — a fault this harness found when compactions joined its workload.
package enum StoreReader {
    /// Records a page: small, so that a zone of the workload takes several.
    static let pageSize = 25

    package static func model(of database: Database) async throws -> StoreModel {
        var zones: [String: [String: StoreModel.Item]] = [:]
        for zone in try await database.allZones() {
            var items: [String: StoreModel.Item] = [:]
            var token: ServerChangeToken?
            var more = true
            while more {
                let page = try await database.fetchZoneChanges(in: zone, since: token, resultsLimit: pageSize)
                for record in page.changedRecords {
                    guard case .int64(let step)? = record["step"], case .string(let text)? = record["text"] else {
                        throw HarnessError.unexpectedRecord("\(record.recordID.recordName) in \(zone.zoneName) lacks the harness's fields")
                    }
                    items[record.recordID.recordName] = StoreModel.Item(step: step, text: text)
                }
                for deletion in page.deletions { items[deletion.recordID.recordName] = nil }
                token = page.changeToken
                more = page.moreComing
            }
            zones[zone.zoneName] = items
        }
        let model = StoreModel(zones: zones)
        if let difference = try await database.register(ItemsView.self).current.differences(from: model) {
            throw HarnessError.viewMismatch(difference)
        }
        return model
    }
}
