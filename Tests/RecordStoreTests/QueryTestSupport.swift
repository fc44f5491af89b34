import Foundation
@testable import RecordStore

/// A record of `type` named `name` in `zone` holding `fields`.
func queryRecord(_ name: String, type: String = "Item", zone: ZoneID = .default, _ fields: [String: FieldValue] = [:]) -> Record {
    var record = Record(recordType: type, recordID: RecordID(recordName: name, zoneID: zone))
    for (key, value) in fields { record[key] = value }
    return record
}

extension Database {
    /// Saves `records` (with `.allKeys`, so updates need no change tag), 400 per request.
    func saveAll(_ records: [Record]) async throws {
        var start = 0
        while start < records.count {
            let chunk = Array(records[start..<min(start + 400, records.count)])
            _ = try await modifyRecords(saving: chunk, deleting: [], savePolicy: .allKeys)
            start += chunk.count
        }
    }

    /// Every page of `query`, `limit` records each, followed through cursors.
    func allPages(_ query: RecordQuery, zone: ZoneID? = nil, limit: Int) async throws -> [QueryResult] {
        var pages = [try await records(matching: query, inZoneWith: zone, resultsLimit: limit)]
        while let cursor = pages.last?.cursor {
            pages.append(try await records(continuingMatchFrom: cursor, resultsLimit: limit))
        }
        return pages
    }

    /// The names of the records matching `predicates` on type "Item", in order.
    func names(_ predicates: [QueryPredicate], sort: [QuerySortDescriptor] = [], zone: ZoneID? = nil, limit: Int = 1000) async throws -> [String] {
        try await records(matching: RecordQuery(recordType: "Item", predicates: predicates, sortDescriptors: sort), inZoneWith: zone, resultsLimit: limit)
            .names
    }
}

extension QueryResult {
    /// The record names of this page, in order.
    var names: [String] { matchResults.map(\.0.recordName) }
}
