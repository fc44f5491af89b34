/// One page of a query's results, as CloudKit's `records(matching:)` returns it.
///
/// ```swift
/// var page = try await database.records(matching: query, resultsLimit: 50)
/// while true {
///     for (id, result) in page.matchResults { show(id, try result.get()) }
///     guard let cursor = page.cursor else { break }
///     page = try await database.records(continuingMatchFrom: cursor)
/// }
/// ```
public struct QueryResult: Sendable {
    /// The matching records of this page, in the query's sort order.
    public var matchResults: [(RecordID, Result<Record, RecordStoreError>)]
    /// Where the next page starts; nil when this page is the last.
    public var cursor: QueryCursor?
    /// How many records the query read from the log to answer (a measure of the plan, for tests).
    var recordsExamined: Int = 0

    /// A page, as the store returns one (for fakes in an app's tests).
    public init(matchResults: [(RecordID, Result<Record, RecordStoreError>)], cursor: QueryCursor? = nil) {
        self.matchResults = matchResults
        self.cursor = cursor
    }

    init(matchResults: [(RecordID, Result<Record, RecordStoreError>)], cursor: QueryCursor?, recordsExamined: Int) {
        self.init(matchResults: matchResults, cursor: cursor)
        self.recordsExamined = recordsExamined
    }

    /// The records of this page, in order (each result's record; a failed item is skipped).
    public var records: [Record] {
        matchResults.compactMap { try? $0.1.get() }
    }
}
