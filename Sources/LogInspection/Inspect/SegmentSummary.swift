/// One segment file in a ``ZoneSummary``.
public struct SegmentSummary: Sendable {
    /// The file, as ``SegmentFile/file``.
    public var file: String
    /// The base offset: from the file name, else the first batch's.
    public var baseOffset: Int64
    /// The file's size.
    public var bytes: Int64
    /// Valid batches.
    public var batches: Int
    /// Records in the valid batches.
    public var records: Int
    /// Damaged stretches (see `verify` for what and where).
    public var damaged: Int

    /// `{"file","baseOffset","bytes","batches","records","damaged"}`.
    public func json() -> JSONValue {
        .object([
            ("file", .string(file)), ("baseOffset", .int(baseOffset)), ("bytes", .int(bytes)), ("batches", .int(batches)),
            ("records", .int(records)), ("damaged", .int(damaged)),
        ])
    }
}
