/// What one compaction of a partition did.
public struct CompactionReport: Sendable, Equatable, Codable {
    /// The partition compacted.
    public var partition: String
    /// Bytes of the segments compacted (every segment but the active one), before and after.
    public var bytesBefore: Int64 = 0
    public var bytesAfter: Int64 = 0
    /// Records read, and records removed: superseded by a later event of their key, or tombstones
    /// past their retention (also counted in `tombstonesDropped`).
    public var recordsRead: Int = 0
    public var recordsRemoved: Int = 0
    public var tombstonesDropped: Int = 0
    /// Segment files before and after (the active one included).
    public var segmentsBefore: Int = 0
    public var segmentsAfter: Int = 0
    /// The first offset still in the log, and the expiry offset (a position below it may have
    /// lost a delete: ``Partition/expiryOffset``), after the compaction.
    public var logStartOffset: Int64 = 0
    public var expiryOffset: Int64 = 0

    public init(partition: String) {
        self.partition = partition
    }

    /// Bytes the compaction gave back.
    public var bytesReclaimed: Int64 { bytesBefore - bytesAfter }
}
