/// A segment as the package's tools show it (log-inspect, recordlog-demo).
package struct SegmentInfo: Sendable, Equatable {
    /// The segment file's path.
    package var path: String
    package var baseOffset: Int64
    /// One past the last offset in the segment.
    package var nextOffset: Int64
    /// Bytes of valid batches.
    package var size: Int64
}
