import RecordStore

/// Reads what a store holds, as a ``StoreModel``: every zone, and every record of each through a
/// change fetch from the start (the path a syncing client takes), in one page.
///
/// Not page by page: once a compaction has dropped a delete, the token of a page from nil that
/// ends below the zone's expiry offset is refused as expired (FORMAT.md §11.1), so a paged fetch
/// from nil of such a zone cannot finish — a fault the harness found when compactions joined the
/// workload, pinned by `ChangeTokenExpiryPagingTests` as a known issue until the engine fixes it.
package enum StoreReader {
    package static func model(of database: Database) async throws -> StoreModel {
        var zones: [String: [String: StoreModel.Item]] = [:]
        for zone in try await database.allZones() {
            var items: [String: StoreModel.Item] = [:]
            var token: ServerChangeToken?
            var more = true
            while more {
                let page = try await database.fetchZoneChanges(in: zone, since: token, resultsLimit: nil)
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
        return StoreModel(zones: zones)
    }
}
