import RecordStore

/// `POST records/lookup`: records by ID, as `Database.records(for:desiredKeys:)`.
///
///     {"records": [{"recordName": "n1", "zoneID": {…}}, …], "desiredKeys": ["title"]}
package struct LookupRecordsRequest: Sendable, WireCodable {
    package var recordIDs: [RecordID]
    /// The fields to return; absent for all, `[]` for system fields only.
    package var desiredKeys: [String]?

    package init(recordIDs: [RecordID], desiredKeys: [String]?) {
        self.recordIDs = recordIDs
        self.desiredKeys = desiredKeys
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.array("records", recordIDs) { $1.write(to: &$0) }
        WireLists.writeDesiredKeys(desiredKeys, to: &writer)
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        try object.allowOnly(["records", "desiredKeys"])
        self.init(recordIDs: try object.list("records", RecordID.init(wire:)), desiredKeys: try WireLists.desiredKeys(in: object))
    }
}

/// The answer to `records/lookup`: one result per ID asked for, in the request's order.
///
///     {"records": [record or error, …]}
package struct LookupRecordsResponse: Sendable, WireCodable {
    package var results: [RecordResult]

    package init(results: [RecordResult]) { self.results = results }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.array("records", results) { $1.write(to: &$0) }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        self.init(results: try wire.object().list("records", RecordResult.init(wire:)))
    }
}
