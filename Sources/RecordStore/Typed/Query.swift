import Logging

/// A typed query for ``RecordCodable`` models: filters and sorts name the model's `Fields`,
/// values are Swift values, and results come back decoded.
///
/// ```swift
/// let page = try await Query<Note>()
///     .filter(.folder, equals: folderID)           // a reference field: the folder's record name
///     .filter(.tags, contains: "work")
///     .filter(.title, beginsWith: "A")
///     .sorted(by: .modifiedAt, ascending: false)   // the record's modificationDate
///     .limit(50)
///     .debug()
///     .fetch(from: database, in: zone)
/// for note in page.models { show(note) }
/// if let cursor = page.cursor { let next = try await query.fetch(continuing: cursor, from: database) }
/// ```
///
/// Filters combine with AND. Only the model's stored fields are fetched (``RecordCodable/desiredKeys``).
/// The identifier cannot be filtered or sorted on (the store has no such query): use
/// `Database.record(for:)`. A filter whose value cannot be mapped does not fail where it is
/// written; the fetch throws the ``RecordMappingError`` instead.
public struct Query<Model: RecordCodable>: Sendable {
    /// One filter, its key already the store's query key.
    struct Filter: Sendable {
        let key: String
        let comparison: QueryPredicate.Comparison
        let value: FieldValue
    }

    var filters: [Filter] = []
    var sortDescriptors: [QuerySortDescriptor] = []
    var resultsLimit = 100
    /// The first filter or sort that could not be mapped, thrown by the fetch.
    var problem: RecordMappingError?
    /// Where ``debug(to:level:)`` logs; nil when not debugging.
    var debugLogger: Logger?
    var debugLevel = Logger.Level.info

    /// A query for every record of the model's type.
    public init() {}

    /// Sorts by `field`, after any earlier sort; ties end sorted by record name. The system-date
    /// fields (`createdAt`, `modifiedAt`) sort by the record's creation and modification dates.
    ///
    /// ```swift
    /// Query<Note>().sorted(by: .modifiedAt, ascending: false)
    /// ```
    public func sorted(by field: Model.Fields, ascending: Bool = true) -> Self {
        var query = self
        if let key = RecordFieldMapping(Model.self).queryKey(for: field.rawValue) {
            query.sortDescriptors.append(QuerySortDescriptor(key: key, ascending: ascending))
        } else {
            query.fail(.unsupportedQuery("cannot sort on the identifier \"\(field.rawValue)\"; results already end sorted by record name"))
        }
        return query
    }

    /// At most `count` records per page (100 unless set; at least 1).
    ///
    /// ```swift
    /// Query<Note>().limit(50)
    /// ```
    public func limit(_ count: Int) -> Self {
        var query = self
        query.resultsLimit = count
        return query
    }

    /// The untyped query this one runs, with reference values resolved in `zoneID` (the default
    /// zone when nil).
    ///
    /// - Throws: the ``RecordMappingError`` of a filter or sort that could not be mapped.
    package func recordQuery(in zoneID: ZoneID? = nil) throws(RecordMappingError) -> RecordQuery {
        if let problem { throw problem }
        let mapping = RecordFieldMapping(Model.self)
        let zone = zoneID ?? .default
        let predicates = filters.map { filter in
            QueryPredicate(filter.key, filter.comparison, mapping.storedValue(filter.value, forKey: filter.key, in: zone))
        }
        return RecordQuery(recordType: Model.recordType, predicates: predicates, sortDescriptors: sortDescriptors)
    }

    mutating func fail(_ error: RecordMappingError) {
        problem = problem ?? error
    }
}
