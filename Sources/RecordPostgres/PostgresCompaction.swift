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
/// The rows below the zone's end are copied into a scratch store, compacted there by
/// ``Partition/compact(_:)``, and read back; appends made meanwhile land above that end and are
/// left alone. Deletes are kept (a retention without end), so no change token expires: every
/// node's mirror, compacted or not, answers every token exactly. A node whose mirror stops
/// inside the replaced rows fetches the zone again (§14.3).
package enum PostgresCompaction {
    /// Compacts zone `zone` of `log`'s database, working in `scratch` (a directory created and
    /// removed here). Returns what the cleaner did, or nil when the zone has no rows or nothing
    /// in them changes (the rows are then left untouched).
    ///
    /// - Throws: ``PostgresLogError`` — `unknownZone`; `fenced` when another compaction replaced
    ///   the rows first or the zone was deleted meanwhile (nothing changed); `LogError` from the
    ///   scratch files.
    package static func compact(_ log: PostgresLog, zone: String, scratch: String, logger: Logger) async throws -> CompactionReport? {
        guard let head = try await log.heads()[zone] else { throw PostgresLogError(.unknownZone, database: log.database, zone: zone) }
        let end = head.endOffset
        guard end > 0 else { return nil }
        var options = LogOptions(durability: .noSyncUnsafe)
        options.compression = .lz4
        let store = try Log(directory: scratch, options: options, logger: logger)
        defer {
            try? store.close()
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let partition = try store.createPartition(named: zone)
        while partition.endOffset < end {
            let rows = try await log.batches(of: zone, from: partition.endOffset)
            guard let first = rows.first, first.header.baseOffset == partition.endOffset else {
                throw PostgresLogError(.corruptRow("the rows do not continue at \(partition.endOffset)"), database: log.database, zone: zone)
            }
            for row in rows where row.header.baseOffset < end { _ = try partition.appendWithoutWaiting(EncodedBatch(stored: row)) }
        }
        var compaction = CompactionOptions(tombstoneRetentionMilliseconds: .max, rollingActiveSegment: true)
        compaction.keptHeader = StoredEvent.clientChangeTokenHeader
        let rules = compaction
        let report = try await onCompactionThread { try partition.compact(rules) }
        guard report.bytesAfter != report.bytesBefore || report.recordsRemoved > 0 else { return nil }

        var cleaned: [RecordBatch] = []
        // Leading segments the compaction emptied: one batch without records stands for them.
        if partition.startOffset > 0 { cleaned.append(try RecordBatchBuilder.emptyBatch(at: 0, spanning: partition.startOffset)) }
        var offset = partition.startOffset
        while offset < end {
            let batches = try partition.batches(from: offset, maxBytes: 4 << 20)
            guard let last = batches.last else { break }
            cleaned += batches
            offset = last.header.lastOffset + 1
        }
        try await log.replace(zone, below: end, with: cleaned, generation: head.generation, compactedThrough: head.compactedThrough)
        logger.info(
            "compacted zone rows",
            metadata: [
                "database": "\(log.database)", "zone": "\(zone)", "through": "\(end)", "bytesBefore": "\(report.bytesBefore)",
                "bytesAfter": "\(report.bytesAfter)", "rows": "\(cleaned.count)",
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
