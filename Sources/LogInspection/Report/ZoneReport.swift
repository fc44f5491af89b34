/// What the HTML report shows about one zone: the summary's counts and segments, and what a
/// person debugging the zone wants to see at a glance.
public struct ZoneReport: Sendable {
    /// Offsets, times, counts by type and event, bytes and segments, as `summary` computes them.
    public var summary: ZoneSummary
    /// One entry per commit (valid batch), in log order.
    public var commits: [CommitPoint] = []
    /// Commits by size: entry *i* counts the commits of 2^i … 2^(i+1) − 1 records.
    public var batchSizes: [Int] = []
    /// The keys with the most events (saves and deletes), most first, at most ``StoreReport/topCount``.
    public var mostRewritten: [KeyEvents] = []
    /// The largest records (key, value and headers as encoded), largest first.
    public var largest: [RecordExtent] = []
    /// Events other than saves, deletes and the store's own system events (subscriptions,
    /// indexes, sync and any kind this tool does not know), by kind.
    public var otherEvents: [String: Int] = [:]
    /// Records carrying headers other than the store's own (`event`, `recordType`, `changeTag`),
    /// by header name: what a sync layer or another writer adds.
    public var otherHeaders: [String: Int] = [:]

    /// The zone's name.
    public var name: String { summary.name }
}

/// One commit of a zone, as the timeline bins it.
public struct CommitPoint: Sendable, Hashable {
    /// The batch's largest timestamp (ms since the epoch).
    public var timestamp: Int64
    /// Save events in it.
    public var saves: Int32
    /// Delete events (tombstones) in it.
    public var deletes: Int32
    /// Zone events (`createZone`, `deleteZone`) in it.
    public var zoneEvents: Int32
    /// Every other record in it.
    public var others: Int32

    /// Every record of the commit.
    public var records: Int { Int(saves) + Int(deletes) + Int(zoneEvents) + Int(others) }
}

/// A key and how many events the zone holds for it.
public struct KeyEvents: Sendable, Hashable {
    /// The record name (the log key; base64 when it is not UTF-8).
    public var key: String
    /// Its events, saves and deletes.
    public var events: Int
    /// Its deletes.
    public var deletes: Int
    /// The offset of its latest event.
    public var lastOffset: Int64
}

/// One record and the bytes it takes.
public struct RecordExtent: Sendable, Hashable {
    /// Its offset.
    public var offset: Int64
    /// The record name (the log key; base64 when it is not UTF-8).
    public var key: String
    /// The event kind.
    public var event: String
    /// The record type, when the event names one.
    public var recordType: String?
    /// Bytes of the record in its batch's records section, uncompressed (FORMAT.md §3.2).
    public var bytes: Int
    /// Bytes of its value.
    public var valueBytes: Int
}
