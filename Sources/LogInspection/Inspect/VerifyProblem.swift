/// One thing `verify` found wrong, with where it is.
public struct VerifyProblem: Sendable, Equatable {
    /// What kind of damage.
    public enum Kind: String, Sendable {
        /// Invalid bytes at the very end of a zone's log and nothing valid after them: an append
        /// that never completed (never acknowledged). The next writer's open cuts it off.
        case tornTail
        /// An invalid batch with valid data after it: mid-log damage. The writer's open refuses
        /// the store; `Log.repair` moves the damaged part to `lost+found`.
        case corruption
        /// Zero bytes at the end of the active segment: space the writer preallocated, there
        /// while the store is open (or after it was not closed). Not damage; the next open cuts it.
        case preallocated
        /// A segment whose base offset does not continue the previous segment.
        case offsetGap
        /// `.index`/`.timeindex` files that differ from the ones rebuilt from the segment.
        case index
        /// A batch whose records, or a store record whose value, do not decode.
        case undecodable
        /// Bytes beyond what a live writer has made durable that are not (yet) a whole batch:
        /// its append in progress. Not damage.
        case liveTail
        /// A damaged small file of the store (`recordlog.meta`, a zone's `zone.name`): the
        /// writer refuses to open the store until it is restored (`Log.repair`).
        case metadata
        /// A zone directory that the system partition does not account for (its creation lost):
        /// the store keeps its files but does not serve the zone.
        case unregisteredZone
        /// A zone the system partition registers that has no directory: the next writer's open
        /// creates it empty; any records it had are gone.
        case missingZoneDirectory
    }

    /// What kind of damage.
    public var kind: Kind
    /// Whether it makes the log unclean; false for a warning (a stale index of the segment still
    /// being written, which the format allows).
    public var isError: Bool
    /// The zone.
    public var zone: String
    /// The segment file, as ``SegmentFile/file``.
    public var file: String
    /// The byte position in the file, when the problem has one.
    public var position: Int64?
    /// The offset concerned: the first offset lost, or the record's.
    public var offset: Int64?
    /// What is wrong, in words.
    public var message: String

    /// `{"kind","severity","zone","file","position","offset","message"}`.
    public func json() -> JSONValue {
        .object([
            ("kind", .string(kind.rawValue)), ("severity", .string(isError ? "error" : "warning")), ("zone", .string(zone)),
            ("file", .string(file)), ("position", .optional(position)), ("offset", .optional(offset)), ("message", .string(message)),
        ])
    }

    /// `error corruption zones/Notes/00000000000000000000.log position 1234 offset 17: …`.
    public func text() -> String {
        var line = "\(isError ? "error" : "warning") \(kind.rawValue) \(file)"
        if let position { line += " position \(position)" }
        if let offset { line += " offset \(offset)" }
        return line + ": " + message
    }
}
