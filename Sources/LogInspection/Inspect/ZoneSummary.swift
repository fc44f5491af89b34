/// What `summary` says about one zone (or one lone segment file).
public struct ZoneSummary: Sendable {
    /// The zone's name.
    public var name: String
    /// The first offset in the log.
    public var startOffset: Int64
    /// The next offset to be written: one past the last valid record.
    public var endOffset: Int64
    /// The first batch's first timestamp (ms), nil when empty.
    public var firstTimestamp: Int64?
    /// The largest record timestamp (ms), nil when empty.
    public var lastTimestamp: Int64?
    /// Valid batches.
    public var batches = 0
    /// Records in the valid batches.
    public var records = 0
    /// Bytes of the segment files.
    public var bytes: Int64 = 0
    /// Bytes of the records sections as stored (compressed, for LZ4 batches).
    public var compressedBytes: Int64 = 0
    /// Bytes of the records sections uncompressed.
    public var rawBytes: Int64 = 0
    /// Records per `recordType` (records without one are not counted here).
    public var recordsByType: [String: Int] = [:]
    /// Records per event kind (`save`, `delete`, `createZone`, …).
    public var recordsByEvent: [String: Int] = [:]
    /// The segments, oldest first.
    public var segments: [SegmentSummary] = []
    /// What compaction has done to the zone; nil when it never ran (no `cleaner-checkpoint`).
    public var compaction: CompactionSummary?

    /// A compacted zone's state (FORMAT.md §13).
    public struct CompactionSummary: Sendable, Equatable {
        /// The first offset the log holds.
        public var logStartOffset: Int64
        /// Compaction dropped deletes below it: older change tokens expire (FORMAT.md §11.1).
        public var expiryOffset: Int64
        /// How many times compaction began and ended dropping deletes (FORMAT.md §13.2): odd while
        /// one is under way, or stopped before its end; a change token below ``expiryOffset`` is
        /// answered only when stamped with it (§11.1).
        public var dropSequence: Int64
        /// Offsets from the log start to the end that hold no record: the versions compaction removed.
        public var gaps: Int64
        /// Bytes of the sealed segments written since the last compaction over all sealed bytes:
        /// a background compaction starts past its threshold (0.5 by default).
        public var dirtyRatio: Double

        func json() -> JSONValue {
            .object([
                ("logStartOffset", .int(logStartOffset)), ("expiryOffset", .int(expiryOffset)), ("dropSequence", .int(dropSequence)),
                ("gaps", .int(gaps)), ("dirtyRatio", .double(dirtyRatio)),
            ])
        }
    }

    /// The zone's JSON object; see ``Summary/json()``.
    public func json() -> JSONValue {
        .object([
            ("name", .string(name)), ("startOffset", .int(startOffset)), ("endOffset", .int(endOffset)),
            ("firstTimestamp", .optional(firstTimestamp)), ("lastTimestamp", .optional(lastTimestamp)),
            ("batches", .int(batches)), ("records", .int(records)), ("bytes", .int(bytes)),
            ("compressedBytes", .int(compressedBytes)), ("rawBytes", .int(rawBytes)),
            ("recordsByType", Self.counts(recordsByType)), ("recordsByEvent", Self.counts(recordsByEvent)),
            ("segments", .array(segments.map { $0.json() })),
        ] + (compaction.map { [("compaction", $0.json())] } ?? []))
    }

    /// A few indented lines for people.
    public func text() -> String {
        var lines = ["zone \(InspectedRecord.word(name)): offsets \(startOffset)..<\(endOffset), \(records) records in \(batches) batches"]
        if let firstTimestamp, let lastTimestamp {
            lines.append("  time: \(Timestamp.iso8601(milliseconds: firstTimestamp)) … \(Timestamp.iso8601(milliseconds: lastTimestamp))")
        }
        lines.append("  bytes: \(bytes) on disk; records \(rawBytes) raw, \(compressedBytes) as stored")
        lines.append("  by event: " + Self.listing(recordsByEvent))
        lines.append("  by type: " + Self.listing(recordsByType))
        if let compaction {
            lines.append(
                "  compaction: log start \(compaction.logStartOffset), expiry offset \(compaction.expiryOffset), "
                    + "drop sequence \(compaction.dropSequence)\(compaction.dropSequence & 1 == 1 ? " (dropping deletes, or stopped while it did)" : ""), "
                    + "\(compaction.gaps) offsets without a record, dirty ratio \((compaction.dirtyRatio * 100).rounded() / 100)")
        }
        for segment in segments {
            var line = "  segment \(segment.file): base \(segment.baseOffset), \(segment.bytes) bytes, "
                + "\(segment.batches) batches, \(segment.records) records"
            if segment.damaged > 0 { line += ", \(segment.damaged) damaged (run verify)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private static func counts(_ counts: [String: Int]) -> JSONValue {
        .object(counts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
    }

    private static func listing(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "-" : counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}
