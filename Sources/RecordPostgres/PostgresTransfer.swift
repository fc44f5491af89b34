import Foundation
import Logging
import NIOCore
import PostgresNIO
import RecordLog

/// Moves a database between PostgreSQL and an ordinary store directory: **export** writes its
/// rows as segment files (a backup that `notes`, `log-inspect`, `log-replay` and Kafka's parsers
/// read, and that a single `recordlog-server --root` serves); **import** writes a store
/// directory's batches as the rows of a new database, so that a user moves from one machine to
/// the cluster. Either way each batch is copied byte for byte, at its offsets (FORMAT.md §14.3).
package enum PostgresTransfer {
    /// What a transfer copied.
    package struct Report: Sendable, Equatable {
        package var zones = 0
        package var batches = 0
        package var bytes = 0
    }

    /// Writes database `name` into `directory` (which must not hold a store yet), fsync'd: every
    /// zone's rows as its partition's batches. A transfer reads each zone's rows up to the head
    /// it read first: commits made meanwhile are not in it.
    ///
    /// - Throws: `PostgresLogError` (`unknownZone` for a database with no zone); `LogError`
    ///   from the files (`notAStore`, or `damagedFile` for a directory that holds something).
    package static func export(_ log: PostgresLog, to directory: String, logger: Logger) async throws -> Report {
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: directory), !contents.isEmpty {
            throw LogError.notAStore(path: directory, reason: "the export's directory must be empty or missing")
        }
        let heads = try await log.heads()
        guard !heads.isEmpty else { throw PostgresLogError(.unknownZone, database: log.database, zone: "*") }
        var options = LogOptions(durability: .fsync)
        options.compression = .lz4
        let store = try await Log.open(directory: directory, options: options, lockTimeout: .zero, logger: logger)
        var report = Report()
        do {
            for (zone, head) in heads.sorted(by: { $0.key < $1.key }) {
                let partition = try store.createPartition(named: zone)
                report.zones += 1
                while partition.endOffset < head.endOffset {
                    let batches = try await log.batches(of: zone, from: partition.endOffset)
                    guard let first = batches.first, first.header.baseOffset == partition.endOffset else {
                        throw PostgresLogError(.corruptRow("the rows stop at \(partition.endOffset), before the head's \(head.endOffset)"), database: log.database, zone: zone)
                    }
                    for batch in batches where batch.header.lastOffset < head.endOffset {
                        // Synced once, at the end, as one commit of many batches is.
                        _ = try partition.appendWithoutWaiting(EncodedBatch(stored: batch))
                        report.batches += 1
                        report.bytes += batch.bytes.count
                    }
                }
            }
            try store.sync()
            try store.close()
        } catch {
            try? store.close()
            throw error
        }
        return report
    }

    /// Writes the store in `directory` (read-only: another process may have it open) as the rows
    /// of `log`'s database, which must not exist yet: every partition's batches, in one
    /// transaction, so that the database appears whole or not at all.
    ///
    /// - Throws: `PostgresLogError` — `malformedBatch` when the database exists already or a
    ///   zone's batches do not start at 0 and follow each other (a compacted store: serve it with
    ///   `recordlog-server --root`, or export it from there); `LogError` from the files.
    package static func importStore(from directory: String, into log: PostgresLog, logger: Logger) async throws -> Report {
        var options = LogOptions(readOnly: true)
        options.compression = .lz4
        let store = try await Log.open(directory: directory, options: options, lockTimeout: .zero, logger: logger)
        defer { try? store.close() }
        var zones: [(name: String, generation: Int64, end: Int64, batches: [RecordBatch])] = []
        var report = Report()
        for name in store.partitionNames {
            let partition = try store.partition(named: name)
            var batches: [RecordBatch] = []
            var next: Int64 = 0
            while next < partition.endOffset {
                let more = try partition.batches(from: next, maxBytes: 4 << 20)
                for batch in more where batch.header.lastOffset >= next {
                    guard batch.header.baseOffset == next else {
                        throw PostgresLogError(
                            .malformedBatch("the store's batches skip from \(next) to \(batch.header.baseOffset) (it was compacted); only an uncompacted store is imported"),
                            database: log.database, zone: name)
                    }
                    batches.append(batch)
                    next = batch.header.lastOffset + 1
                }
                if more.isEmpty { break }
            }
            report.zones += 1
            report.batches += batches.count
            report.bytes += batches.reduce(0) { $0 + $1.bytes.count }
            zones.append((name, Int64.random(in: Int64.min...Int64.max), next, batches))
        }
        try await log.insertWhole(zones)
        return report
    }
}

extension PostgresLog {
    /// Inserts a new database's zones — heads and rows — in one transaction; refused (nothing
    /// inserted) when any of its zones exists.
    func insertWhole(_ zones: [(name: String, generation: Int64, end: Int64, batches: [RecordBatch])]) async throws {
        do {
            try await insertWholeTransaction(zones)
        } catch let error as PostgresTransactionError {
            // The refusal inside, when there is one, is the error to report.
            throw error.closureError ?? error
        }
    }

    private func insertWholeTransaction(_ zones: [(name: String, generation: Int64, end: Int64, batches: [RecordBatch])]) async throws {
        try await client.withTransaction(logger: logger) { connection in
            let existing = try await connection.query("SELECT count(*) FROM recordlog_zones WHERE database = \(database)", logger: logger)
            for try await count in existing.decode(Int64.self) where count > 0 {
                throw PostgresLogError(.malformedBatch("database \(database) exists already; import into a new name"), database: database, zone: "*")
            }
            for zone in zones {
                try await connection.query(
                    "INSERT INTO recordlog_zones (database, zone, end_offset, generation) VALUES (\(database), \(zone.name), \(zone.end), \(zone.generation))",
                    logger: logger)
                try await insertRows(zone.batches, zone: zone.name, on: connection)
            }
        }
    }
}
