import Dispatch
import Foundation
import Logging
import RecordLog
import RecordStore

/// Compaction of a zone kept in PostgreSQL (FORMAT.md §14.5): its rows are cleaned by the same
/// rules as a segment file's (§13) — each record's latest event kept, small commits merged into
/// batches that compress — and the cleaned batches replace the old rows in one transaction,
/// fenced like an append.
///
/// The rows — every one from offset 0, or (incremental) those since the last compaction — are
/// copied into a scratch store, compacted there by ``Partition/compact(_:)``, and read back;
/// appends made meanwhile land above them and are left alone. Deletes are kept unless a whole
/// compaction is given a retention; then the zone's head records the expiry offset and drop
/// sequence (§11.1), which a mirror built from the rows takes on, while a mirror built before
/// keeps every delete and answers tokens by its own. A node whose mirror stops inside the
/// replaced rows fetches the zone again (§14.3).
package enum PostgresCompaction {
    /// Compacts zone `zone` of `log`'s database, working in `scratch` (a directory created and
    /// removed here). Returns what the cleaner did, or nil when there is nothing to compact or
    /// nothing in it changes (the rows are then left untouched).
    ///
    /// - Parameters:
    ///   - incremental: only the rows since the zone's last compaction (`compacted_through`):
    ///     small commits merged, versions replaced within them removed — cheap, as often as
    ///     commits pile up. Otherwise every row from offset 0: each record's latest event kept.
    ///   - minimumLag: rows holding a commit younger than this are left for the next time
    ///     (Kafka's `min.compaction.lag.ms`), so that the nodes pulling them are past them
    ///     before they are replaced.
    ///   - tombstoneRetention: how long a delete is kept (§13, rule 2); nil keeps every one, so
    ///     that no change token expires. Only a whole compaction drops deletes: the head's
    ///     expiry offset and drop sequence then move (FORMAT.md §11.1, §14.5).
    /// - Throws: ``PostgresLogError`` — `unknownZone`; `fenced` when another compaction replaced
    ///   the rows first or the zone was deleted meanwhile (nothing changed); `LogError` from the
    ///   scratch files.
    package static func compact(
        _ log: PostgresLog, zone: String, incremental: Bool = false, minimumLag: Duration = .zero, tombstoneRetention: Duration? = nil,
        scratch: String, logger: Logger
    ) async throws -> CompactionReport? {
        guard let head = try await log.heads()[zone] else { throw PostgresLogError(.unknownZone, database: log.database, zone: zone) }
        let start = incremental ? head.compactedThrough : 0
        let newest = RecordBatchBuilder.now() - CompactionPolicy.milliseconds(minimumLag)
        var options = LogOptions(durability: .noSyncUnsafe)
        options.compression = .lz4
        let store = try Log(directory: scratch, options: options, logger: logger)
        defer {
            try? store.close()
            try? FileManager.default.removeItem(atPath: scratch)
        }
        // The rows from `start`, shifted to offset 0 of a scratch partition (a batch's base offset
        // lies outside its CRC; every other offset in it is relative), up to the first one too young.
        let partition = try store.createPartition(named: zone)
        var end = start
        copying: while end < head.endOffset {
            let rows = try await log.batches(of: zone, from: end)
            guard let first = rows.first, first.header.baseOffset == end else {
                throw PostgresLogError(.corruptRow("the rows do not continue at \(end)"), database: log.database, zone: zone)
            }
            for row in rows where row.header.baseOffset < head.endOffset {
                if row.header.maxTimestamp > newest { break copying }
                _ = try partition.appendWithoutWaiting(EncodedBatch(stored: row))
                end = row.header.lastOffset + 1
            }
        }
        guard end > start else { return nil }
        let retention = incremental ? nil : tombstoneRetention
        var compaction = CompactionOptions(
            tombstoneRetentionMilliseconds: retention.map(CompactionPolicy.milliseconds) ?? .max, rollingActiveSegment: true)
        compaction.keptHeader = StoredEvent.clientChangeTokenHeader
        let rules = compaction
        let report = try await onCompactionThread { try partition.compact(rules) }
        guard report.bytesAfter != report.bytesBefore || report.recordsRemoved > 0 else { return nil }

        var cleaned: [RecordBatch] = []
        // Leading segments the compaction emptied: one batch without records stands for them.
        if partition.startOffset > 0 { cleaned.append(try RecordBatchBuilder.emptyBatch(at: start, spanning: partition.startOffset)) }
        var offset = partition.startOffset
        while offset < end - start {
            let batches = try partition.batches(from: offset, maxBytes: 4 << 20)
            guard let last = batches.last else { break }
            for batch in batches { cleaned.append(try batch.movedBy(start)) }
            offset = last.header.lastOffset + 1
        }
        // The scratch partition's offsets are the rows' moved down by `start` (0 when deletes may go).
        let dropped = report.tombstonesDropped > 0 ? start + report.expiryOffset : nil
        try await log.replace(zone, from: start, below: end, with: cleaned, head: head, droppedDeletesBelow: dropped)
        logger.info(
            "compacted zone rows",
            metadata: [
                "database": "\(log.database)", "zone": "\(zone)", "from": "\(start)", "through": "\(end)",
                "bytesBefore": "\(report.bytesBefore)", "bytesAfter": "\(report.bytesAfter)", "rows": "\(cleaned.count)",
            ])
        return report
    }

    /// Runs the cleaner's blocking reads and writes on a thread of their own, never on the
    /// cooperative pool.
    private static func onCompactionThread(_ body: @escaping @Sendable () throws -> CompactionReport) async throws -> CompactionReport {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(with: Result { try body() }) }
        }
    }
}

extension RecordBatch {
    /// The batch with its base offset moved by `distance`: the same records at offsets that much
    /// further on (the base offset lies outside the CRC; every other offset is relative to it).
    func movedBy(_ distance: Int64) throws -> RecordBatch {
        guard distance != 0 else { return self }
        var bytes = Array(self.bytes)
        let base = header.baseOffset + distance
        for index in 0..<8 { bytes[index] = UInt8(truncatingIfNeeded: base >> (56 - 8 * index)) }
        return try RecordBatch(bytes: bytes[...])
    }
}
