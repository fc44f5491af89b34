import RecordStore

/// `POST records/lookup`: records by ID, as `Database.records(for:desiredKeys:)`.
package struct LookupRecordsRequest: Codable, Sendable {
    package var recordIDs: [RecordID]
    /// The fields to return; absent for all, `[]` for system fields only.
    package var desiredKeys: [String]?

    package init(recordIDs: [RecordID], desiredKeys: [String]?) {
        self.recordIDs = recordIDs
        self.desiredKeys = desiredKeys
    }
}

/// The answer to `records/lookup`: one result per ID asked for, in the request's order.
package struct LookupRecordsResponse: Codable, Sendable {
    package var results: [RecordResult]

    package init(results: [RecordResult]) { self.results = results }
}
