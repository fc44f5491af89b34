import RecordLog

/// Which records `dump` shows. Offsets: `from` inclusive, `to` exclusive (every event with
/// offset < `to`, like mysqlbinlog's `--stop-position`). Times: both ends inclusive.
public struct DumpFilter: Sendable {
    /// Only this zone.
    public var zone: String?
    /// The first offset shown.
    public var from: Int64?
    /// One past the last offset shown.
    public var to: Int64?
    /// Only records with this key (record name).
    public var key: String?
    /// Only events of this record type.
    public var recordType: String?
    /// Only records with timestamp ≥ this (ms since the epoch).
    public var since: Int64?
    /// Only records with timestamp ≤ this (ms since the epoch).
    public var until: Int64?
    /// Only records with a header passing each of these (`--header event=delete`).
    public var headers: [DumpMatch] = []
    /// Only records whose decoded fields pass each of these (`--field title~=milk`).
    public var fields: [DumpMatch] = []
    /// Stop after this many records passed: a search over a large store is bounded.
    public var limit: Int?

    /// A filter; every criterion left nil lets everything through.
    public init(
        zone: String? = nil, from: Int64? = nil, to: Int64? = nil, key: String? = nil, recordType: String? = nil,
        since: Int64? = nil, until: Int64? = nil, headers: [DumpMatch] = [], fields: [DumpMatch] = [], limit: Int? = nil
    ) {
        self.zone = zone
        self.from = from
        self.to = to
        self.key = key
        self.recordType = recordType
        self.since = since
        self.until = until
        self.headers = headers
        self.fields = fields
        self.limit = limit
    }

    /// Whether the offset is within `from ..< to`.
    public func contains(offset: Int64) -> Bool {
        (from.map { offset >= $0 } ?? true) && (to.map { offset < $0 } ?? true)
    }

    /// Whether a batch holds any offset within `from ..< to`.
    package func overlaps(_ header: RecordBatchHeader) -> Bool {
        (from.map { header.lastOffset >= $0 } ?? true) && (to.map { header.baseOffset < $0 } ?? true)
    }

    /// Whether `record` passes every criterion (the zone is checked by the caller).
    public func matches(_ record: InspectedRecord) -> Bool {
        contains(offset: record.record.offset)
            && (key.map { record.record.keyString == $0 } ?? true)
            && (recordType.map { record.event.recordType == $0 } ?? true)
            && (since.map { record.record.timestamp >= $0 } ?? true)
            && (until.map { record.record.timestamp <= $0 } ?? true)
            && headers.allSatisfy { $0.matchesHeader(of: record) }
            && fields.allSatisfy { $0.matchesField(of: record) }
    }
}
