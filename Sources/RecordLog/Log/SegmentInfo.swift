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
