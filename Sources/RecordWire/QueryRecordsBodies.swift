import RecordStore

/// `POST records/query`: a query's first page (`query`), or the next page of one
/// (`continuationMarker`), as `Database.records(matching:…)`.
///
///     {"query": {…}, "zoneID": {…}, "desiredKeys": [...], "resultsLimit": 100}
///     {"continuationMarker": "base64", "resultsLimit": 100}
package struct QueryRecordsRequest: Sendable, WireCodable {
    package var query: RecordQuery?
    /// The zone to search; absent for every zone.
    package var zoneID: ZoneID?
    package var desiredKeys: [String]?
    /// The most records in the page (default 100; 0 for as many as possible).
    package var resultsLimit: Int?
    /// The `continuationMarker` of the previous page.
    package var continuationMarker: String?

    package init(query: RecordQuery?, zoneID: ZoneID?, desiredKeys: [String]?, resultsLimit: Int?, continuationMarker: String?) {
        self.query = query
        self.zoneID = zoneID
        self.desiredKeys = desiredKeys
        self.resultsLimit = resultsLimit
        self.continuationMarker = continuationMarker
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if let query {
            writer.key("query")
            query.write(to: &writer)
        }
        if let zoneID {
            writer.key("zoneID")
            zoneID.write(to: &writer)
        }
        WireLists.writeDesiredKeys(desiredKeys, to: &writer)
        if let resultsLimit {
            writer.key("resultsLimit")
            writer.int(resultsLimit)
        }
        if let continuationMarker {
            writer.key("continuationMarker")
            writer.string(continuationMarker)
        }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        try object.allowOnly(["query", "zoneID", "desiredKeys", "resultsLimit", "continuationMarker"])
        let zoneID = try object.optional("zoneID").map(ZoneID.init(wire:))
        self.init(
            query: try object.optional("query").map { try RecordQuery(wire: $0, zoneID: zoneID ?? .default) }, zoneID: zoneID,
            desiredKeys: try WireLists.desiredKeys(in: object), resultsLimit: try object.optional("resultsLimit")?.int(),
            continuationMarker: try object.optional("continuationMarker")?.string())
    }
}

/// A page of a query: its matches in order, and the marker of the next page when more match.
///
///     {"records": [record or error, …], "continuationMarker": "base64"}
package struct QueryRecordsResponse: Sendable, WireCodable {
    package var results: [RecordResult]
    package var continuationMarker: String?

    package init(results: [RecordResult], continuationMarker: String?) {
        self.results = results
        self.continuationMarker = continuationMarker
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.array("records", results) { $1.write(to: &$0) }
        if let continuationMarker {
            writer.key("continuationMarker")
            writer.string(continuationMarker)
        }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        self.init(
            results: try object.list("records", RecordResult.init(wire:)), continuationMarker: try object.optional("continuationMarker")?.string())
    }
}
