import RecordLog

/// When a database compacts its zones' logs, and how long it keeps deletes.
///
/// Compaction (Kafka's log compaction) keeps each record's latest event and removes the
/// versions it replaced, so a log stays the size of its data however often records are
/// edited. A delete is kept for ``tombstoneRetention``: a device that fetches changes at least
/// that often learns of every delete; one that waited longer gets `changeTokenExpired` and
/// fetches from nil (FORMAT.md §11.1).
///
/// ```swift
/// let database = try await Database(directory: path, compaction: CompactionPolicy(tombstoneRetention: .seconds(7 * 86_400)))
/// try await database.compact()                      // now, every zone
/// ```
public struct CompactionPolicy: Sendable, Equatable {
    /// How long a delete is kept after its commit; 24 hours by default (Kafka's
    /// `delete.retention.ms`).
    public var tombstoneRetention: Duration
    /// Whether a zone is compacted in the background once ``dirtyRatioThreshold`` of its sealed
    /// log was written since its last compaction.
    public var automatic: Bool
    /// The share (0–1) of a zone's sealed segments written since its last compaction that starts
    /// a background compaction; 0.5 by default (Kafka's `min.cleanable.dirty.ratio`).
    public var dirtyRatioThreshold: Double
    /// How many bytes of small commits (stored batches under 4 KiB: one per request, as a server
    /// writes them) a zone gathers before a background compaction re-batches them, provided they
    /// are also half of the zone's log; 4 MiB by default. Merged into batches of up to 64 KiB of
    /// records, they compress as the engine's large commits do (FORMAT.md §13, rule 3). Counted
    /// from the database's open.
    public var rebatchingBytes: Int64

    public init(
        tombstoneRetention: Duration = .seconds(86_400), automatic: Bool = true, dirtyRatioThreshold: Double = 0.5,
        rebatchingBytes: Int64 = 4 << 20
    ) {
        self.tombstoneRetention = tombstoneRetention
        self.automatic = automatic
        self.dirtyRatioThreshold = min(max(dirtyRatioThreshold, 0), 1)
        self.rebatchingBytes = max(rebatchingBytes, 1)
    }

    /// Compaction only when asked (``Database/compact(zone:tombstoneRetention:)``).
    public static let manual = CompactionPolicy(automatic: false)

    /// A retention in whole milliseconds, saturating.
    package static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (millis, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? Int64.max : millis &+ attoseconds / 1_000_000_000_000_000
    }
}
