/// Where a replay stops in one zone: it applies the offsets `start..<end`.
public struct ZoneCut: Sendable, Hashable {
    /// The zone (partition) name.
    public var zone: String
    /// The zone's first offset.
    public var start: Int64
    /// The exclusive end of the replay: the point, as an offset in this zone.
    public var end: Int64
    /// The zone's end offset (the next to be written) when the replay was planned.
    public var logEnd: Int64

    /// The number of events the replay reads.
    public var eventCount: Int64 { max(0, end - start) }
}
