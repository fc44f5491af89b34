/// A query: a record type, predicates combined with AND (as CloudKit), and a sort order.
///
/// ```swift
/// let query = Query(recordType: "Note", predicates: [.init("folder", .equals, .string("f1"))],
///                   sortDescriptors: [SortDescriptor(key: "modifiedAt", ascending: false)])
/// ```
public struct Query: Sendable, Hashable, Codable {
    public var recordType: String
    /// All must hold (AND); empty matches every record of the type.
    public var predicates: [QueryPredicate]
    /// Applied in order; ties are broken by record name so the order is total.
    public var sortDescriptors: [SortDescriptor]

    public init(recordType: String, predicates: [QueryPredicate] = [], sortDescriptors: [SortDescriptor] = []) {
        self.recordType = recordType
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
    }

    /// Whether `record` is of the query's type and satisfies every predicate.
    public func matches(_ record: Record) -> Bool {
        record.recordType == recordType && predicates.allSatisfy { $0.matches(record) }
    }
}

/// One field's sort order.
public struct SortDescriptor: Sendable, Hashable, Codable {
    /// A field key, or one of the system keys `creationDate` / `modificationDate`.
    public var key: String
    public var ascending: Bool

    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
