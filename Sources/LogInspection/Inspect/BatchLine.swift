import RecordLog

/// One batch header as `dump --batches` shows it.
public struct BatchLine: Sendable {
    /// The zone (or lone segment) the batch is in.
    public let zone: String
    /// The segment file, as ``SegmentFile/file``.
    public let file: String
    /// The batch as scanned.
    public let batch: ScannedBatch

    /// `{"zone","file","position","size","baseOffset","lastOffset","count","codec","crc",
    /// "firstTimestamp","maxTimestamp","valid"}` and `problem` when not valid; header fields are
    /// null when fewer than 61 bytes remain.
    public func json() -> JSONValue {
        let header = batch.header
        var members: [(String, JSONValue)] = [
            ("zone", .string(zone)), ("file", .string(file)), ("position", .int(batch.position)), ("size", .int(batch.size)),
            ("baseOffset", .optional(header?.baseOffset)), ("lastOffset", .optional(header?.lastOffset)),
            ("count", .optional(header.map { Int64($0.recordCount) })), ("codec", .optional(header.map(Self.codec))),
            ("crc", .optional(header.map { Int64($0.crc) })), ("firstTimestamp", .optional(header?.firstTimestamp)),
            ("maxTimestamp", .optional(header?.maxTimestamp)), ("valid", .bool(batch.isValid)),
        ]
        if let problem = batch.problem { members.append(("problem", .string(problem))) }
        return .object(members)
    }

    /// `Notes batch baseOffset=0 lastOffset=2 count=3 position=0 size=307 codec=lz4 crc=0xf36fa947 valid=true …`.
    public func text() -> String {
        var parts = [InspectedRecord.word(zone), "batch"]
        if let header = batch.header {
            parts += ["baseOffset=\(header.baseOffset)", "lastOffset=\(header.lastOffset)", "count=\(header.recordCount)"]
        }
        parts += ["position=\(batch.position)", "size=\(batch.size)"]
        if let header = batch.header {
            parts += [
                "codec=\(Self.codec(header))", "crc=\(Self.hex(header.crc))",
                "firstTimestamp=\(Timestamp.iso8601(milliseconds: header.firstTimestamp))",
                "maxTimestamp=\(Timestamp.iso8601(milliseconds: header.maxTimestamp))",
            ]
        }
        parts.append("valid=\(batch.isValid)")
        if let problem = batch.problem { parts.append("problem=" + JSONValue.string(problem).compact()) }
        return parts.joined(separator: " ")
    }

    static func codec(_ header: RecordBatchHeader) -> String {
        header.compression?.description ?? "unknown(\(header.attributes & 0x07))"
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
