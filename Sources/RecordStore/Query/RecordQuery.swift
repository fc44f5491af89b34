/// A query: a record type, predicates combined with AND (as CloudKit), and a sort order.
///
/// ```swift
/// let query = RecordQuery(recordType: "Note", predicates: [.init("folder", .equals, .string("f1"))],
///                   sortDescriptors: [QuerySortDescriptor(key: "modificationDate", ascending: false)])
/// ```
public struct RecordQuery: Sendable, Hashable, Codable {
    /// The type of the records to find.
    public var recordType: String
    /// All must hold (AND); empty matches every record of the type.
    public var predicates: [QueryPredicate]
    /// Applied in order; ties are broken by zone name, then record name (both by UTF-8 bytes), so
    /// the order is total.
    public var sortDescriptors: [QuerySortDescriptor]

    /// A query for records of `recordType`: all of them unless `predicates` say otherwise.
    public init(recordType: String, predicates: [QueryPredicate] = [], sortDescriptors: [QuerySortDescriptor] = []) {
        self.recordType = recordType
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
    }

    /// Whether `record` is of the query's type and satisfies every predicate.
    package func matches(_ record: Record) -> Bool {
        record.recordType == recordType && predicates.allSatisfy { $0.matches(record) }
    }
}

/// One field's sort order. (Named apart from Foundation's generic `SortDescriptor`, so code that
/// imports both needs no qualification.)
///
/// Values sort in one total order across kinds: a missing field first (so last when descending),
/// then numbers (`int64` and `double` together, by value), NaN, strings (by UTF-8 bytes, i.e.
/// Unicode scalar order, case-sensitive), dates, Booleans, bytes, references, locations, lists.
///
/// With a ``relativeLocation`` (CloudKit's `CKLocationSortDescriptor`), a location field sorts
/// by its distance from that location in meters, nearest first when ascending; a record without
/// the field (or whose field holds no location) sorts as a missing value.
public struct QuerySortDescriptor: Sendable, Hashable, Codable {
    /// A field key, or one of the system keys `creationDate` / `modificationDate`.
    public var key: String
    /// Smallest first when true.
    public var ascending: Bool
    /// For a location field: sort by distance from here; nil to sort by the value itself.
    public var relativeLocation: Location?

    /// Sorts by `key`, ascending unless told otherwise.
    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// Sorts by the distance of the location field `key` from `relativeLocation`, nearest first
    /// unless told otherwise, as CloudKit's `CKLocationSortDescriptor(key:relativeLocation:)`.
    public init(key: String, relativeLocation: Location, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
        self.relativeLocation = relativeLocation
    }
}
