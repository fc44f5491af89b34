import StorageKit
/// What a partition knows of one of its segments.
struct SegmentState: Sendable {
    let baseOffset: Int64
    let file: OpenFile
    /// Bytes of whole, valid batches: where the next batch is written.
    var size: Int64
    /// The file's length: at least `size`; beyond it, zeros written ahead of the appends of the
    /// active segment (preallocation), cut away when the segment is sealed or the log closed.
    var allocated: Int64 = 0
    /// One past the segment's last offset.
    var nextOffset: Int64
    /// The first batch's first timestamp; nil while the segment is empty.
    var firstTimestamp: Int64?
    var indexer: SegmentIndexer

    var path: String { file.path }

    /// The path of a sibling file: the same base offset with another suffix.
    func siblingPath(_ suffix: String) -> String {
        String(path.dropLast(SegmentName.logSuffix.count)) + suffix
    }

    /// Writes the `.index` and `.timeindex` files (each atomically).
    func writeIndexFiles(directory: String) throws {
        try FileSystem.writeAtomically(
            indexer.offsetIndex.serialized(), to: siblingPath(SegmentName.indexSuffix), directory: directory)
        try FileSystem.writeAtomically(
            indexer.timeIndex.serialized(), to: siblingPath(SegmentName.timeIndexSuffix), directory: directory)
    }
}

/// A segment as the public API shows it.
public struct SegmentInfo: Sendable, Equatable {
    /// The segment file's path.
    public var path: String
    public var baseOffset: Int64
    /// One past the last offset in the segment.
    public var nextOffset: Int64
    /// Bytes of valid batches.
    public var size: Int64
}
