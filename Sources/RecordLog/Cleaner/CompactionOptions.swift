/// How a compaction treats deletes, and the clock it measures them by.
///
/// ```swift
/// let report = try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: 7 * 86_400_000))
/// ```
public struct CompactionOptions: Sendable, Equatable {
    /// Kafka's `delete.retention.ms`: 24 hours.
    public static let defaultTombstoneRetentionMilliseconds: Int64 = 86_400_000

    /// How long a delete's tombstone (a null value) is kept after it was written, in milliseconds
    /// (Kafka's `delete.retention.ms`): a reader that last read the log less than this long ago
    /// still learns of the delete. A tombstone whose timestamp is older than `now` minus this is
    /// dropped, and the partition's ``Partition/expiryOffset`` moves past it. `.max` keeps every
    /// tombstone that is its key's latest event; 0 drops them all.
    public var tombstoneRetentionMilliseconds: Int64
    /// The wall clock the retention is measured against, in milliseconds since the epoch; the
    /// real clock when nil. Tests pin it; not product API.
    package var now: Int64?
    /// Whether the active segment is sealed first (rolled), so that everything appended before
    /// the call is compacted. A background compaction leaves the active segment alone.
    public var rollingActiveSegment: Bool
    /// A header whose last carrier in the compacted segments is kept whatever the other rules
    /// say — even when a later event of its key replaces it, or it is a tombstone past its
    /// retention (FORMAT.md §13, rule 6). RecordStore names its `clientChangeToken` header: a
    /// zone's latest client change token must outlive the commit that brought it. Nil: none.
    package var keptHeader: String?

    public init(
        tombstoneRetentionMilliseconds: Int64 = CompactionOptions.defaultTombstoneRetentionMilliseconds,
        rollingActiveSegment: Bool = true
    ) {
        self.init(tombstoneRetentionMilliseconds: tombstoneRetentionMilliseconds, now: nil, rollingActiveSegment: rollingActiveSegment)
    }

    /// The options with the clock pinned to `now`, for tests.
    package init(tombstoneRetentionMilliseconds: Int64, now: Int64?, rollingActiveSegment: Bool = true) {
        self.tombstoneRetentionMilliseconds = max(0, tombstoneRetentionMilliseconds)
        self.now = now
        self.rollingActiveSegment = rollingActiveSegment
    }

    /// Tombstones with a timestamp below this are dropped. A retention of 0 drops every
    /// tombstone, one written in this very millisecond included (measured against the clock it
    /// would survive until the next millisecond: a compaction right after a delete kept it).
    var tombstoneCutoff: Int64 {
        if tombstoneRetentionMilliseconds == 0 { return Int64.max }
        let clock = now ?? RecordBatchBuilder.now()
        let (cutoff, overflow) = clock.subtractingReportingOverflow(tombstoneRetentionMilliseconds)
        return overflow ? Int64.min : cutoff
    }
}
