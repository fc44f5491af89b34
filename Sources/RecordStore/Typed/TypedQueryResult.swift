/// One page of a typed query's results: each matching record decoded (or why it could not be),
/// in the query's order, and the cursor to the next page.
///
/// ```swift
/// let page = try await Query<Note>().limit(20).fetch(from: database)
/// for (id, result) in page.matchResults {
///     switch result {
///     case .success(let note): show(note)
///     case .failure(let error): logger.warning("skipping \(id): \(error)")
///     }
/// }
/// ```
public struct TypedQueryResult<Model: RecordCodable> {
    /// Each matching record's ID and its decoded model, or the error that kept it from decoding
    /// (a ``RecordMappingError``) or from being fetched (a ``RecordStoreError``), in order.
    public var matchResults: [(id: RecordID, result: Result<Model, any Error>)]
    /// Where the next page starts (pass it to ``Query/fetch(continuing:from:)``); nil on the last page.
    public var cursor: QueryCursor?
    /// The records as fetched (only the model's fields), for tests.
    let fetchedRecords: [Record]

    /// Decodes each record of `page`.
    init(decoding page: QueryResult) {
        let decoder = RecordDecoder()
        matchResults = page.matchResults.map { id, result in
            (id, Result { try decoder.decode(Model.self, from: result.get()) })
        }
        cursor = page.cursor
        fetchedRecords = page.records
    }

    /// The models that decoded, in order (failed records skipped).
    public var models: [Model] {
        matchResults.compactMap { try? $0.result.get() }
    }

    /// The records that failed, with their errors, in order.
    public var failures: [(id: RecordID, error: any Error)] {
        matchResults.compactMap { id, result in
            if case .failure(let error) = result { (id, error) } else { nil }
        }
    }
}

extension TypedQueryResult: Sendable where Model: Sendable {}
