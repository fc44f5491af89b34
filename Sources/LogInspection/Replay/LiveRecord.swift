import RecordStore

/// A record as it stood at a point: its latest save before the point, not deleted since.
public struct LiveRecord: Sendable, Hashable {
    /// The zone it lives in.
    public var zone: String
    /// The record, as that save wrote it.
    public var record: Record
    /// The offset of that save.
    public var offset: Int64
    /// When that save was appended, in milliseconds since the epoch.
    public var timestamp: Int64

    /// The record name.
    public var recordName: String { record.recordID.recordName }
}
