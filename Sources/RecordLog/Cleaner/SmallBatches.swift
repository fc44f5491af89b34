/// How much of a partition was appended in small batches since it last rolled for a
/// compaction: what makes a log of small commits worth re-batching (FORMAT.md §13, rule 3).
///
/// A server writes one small commit per request, and LZ4 over one ≈300-byte record gains
/// nothing; a compaction merges runs of small batches into batches of up to
/// ``CleanedSegmentWriter/targetBatchBytes`` of records, which compress as the engine's large
/// commits do. RecordStore's ``isDue(minimumBytes:)`` decides when.
package struct SmallBatches: Sendable, Equatable {
    /// A batch of fewer bytes than this (as stored) is a small commit.
    package static let batchBytes = 4 << 10

    /// Bytes appended in small batches since the partition was opened or last rolled by a
    /// compaction (counted in memory: an open starts again from 0).
    package var bytes: Int64 = 0
    /// Every byte of the partition's segments.
    package var totalBytes: Int64 = 0

    package init(bytes: Int64 = 0, totalBytes: Int64 = 0) {
        self.bytes = bytes
        self.totalBytes = totalBytes
    }

    /// Whether a compaction that rolls the active segment is worth running for them: at least
    /// `minimumBytes` of small batches, and at least half of the partition (so that each
    /// compaction rewrites about twice what was appended since the last one, as Kafka's dirty
    /// ratio of 0.5 does).
    package func isDue(minimumBytes: Int64) -> Bool {
        bytes >= minimumBytes && bytes * 2 >= totalBytes
    }
}
