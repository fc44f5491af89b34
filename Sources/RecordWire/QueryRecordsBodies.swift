import RecordStore

/// `POST records/query`: a query's first page (`query`), or the next page of one
/// (`continuationMarker`), as `Database.records(matching:…)`.
package struct QueryRecordsRequest: Codable, Sendable {
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
}

/// A page of a query: its matches in order, and the marker of the next page when more match.
package struct QueryRecordsResponse: Codable, Sendable {
    package var results: [RecordResult]
    package var continuationMarker: String?

    package init(results: [RecordResult], continuationMarker: String?) {
        self.results = results
        self.continuationMarker = continuationMarker
    }
}
