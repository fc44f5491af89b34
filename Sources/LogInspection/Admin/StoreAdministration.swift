import Foundation
import Logging
import RecordLog
import RecordStore

/// What the `recordlog` administration tool does to a store, callable in-process: compact,
/// repair, checkpoint. Each opens the store as its writer, waiting its turn for the write lock
/// like any writer (up to `lockTimeout`, the database's 5 s by default; an app that keeps the
/// store open longer makes it fail with `LogError.locked` rather than share the store), and
/// returns what it did as JSON and as text.
///
/// ```swift
/// let result = try await StoreAdministration.compact(store: path, zone: "Notes")
/// print(result.text())
/// ```
package enum StoreAdministration {
    /// What an administration command did: a JSON object for scripts, lines for people.
    package struct Result: Sendable {
        package var json: JSONValue
        package var lines: [String]

        package func text() -> String { lines.joined(separator: "\n") }
    }

    /// Compacts `zone` (every zone when nil) of the store at `store`, as
    /// `Database.compact(zone:tombstoneRetention:)` does.
    ///
    /// - Throws: `LogError` (locked, corrupt: run `repair`), `RecordStoreError.zoneNotFound`.
    package static func compact(
        store: String, zone: String?, tombstoneRetention: Duration? = nil, lockTimeout: Duration = Database.defaultLockTimeout,
        logger: Logger = Logger(label: "recordlog")
    ) async throws -> Result {
        try requireStore(store)
        let database = try await Database(directory: store, lockTimeout: lockTimeout, compaction: .manual, logger: logger)
        do {
            let reports = try await database.compact(zone: zone.map { ZoneID(zoneName: $0) }, tombstoneRetention: tombstoneRetention)
            try database.close()
            let json = JSONValue.object([("zones", .array(reports.map(json)))])
            let lines = reports.map { report in
                "zone \(InspectedRecord.word(report.partition)): \(report.bytesBefore) → \(report.bytesAfter) bytes, "
                    + "\(report.recordsRemoved) of \(report.recordsRead) records removed (\(report.tombstonesDropped) deletes dropped), "
                    + "segments \(report.segmentsBefore) → \(report.segmentsAfter), log start \(report.logStartOffset), "
                    + "expiry offset \(report.expiryOffset)"
            }
            return Result(json: json, lines: lines.isEmpty ? ["no zones"] : lines)
        } catch {
            try? database.close()
            throw error
        }
    }

    /// Repairs the store at `store` as `Log.repair(directory:)` does: a compaction's half-done
    /// swap finished, each zone cut at its first corrupt batch, every removed byte moved to
    /// `lost+found/`.
    package static func repair(
        store: String, lockTimeout: Duration = Database.defaultLockTimeout, logger: Logger = Logger(label: "recordlog")
    ) async throws -> Result {
        try requireStore(store)
        let report = try await Log.repair(directory: store, lockTimeout: lockTimeout, logger: logger)
        let repairs = report.repairs.map { repair -> JSONValue in
            .object([
                ("zone", .string(repair.partition)), ("file", .string(repair.file)), ("position", .int(repair.position)),
                ("firstLostOffset", .int(repair.firstLostOffset)), ("reason", .string(repair.reason)),
                ("lostOffsets", .object([("from", .int(repair.lostOffsets.lowerBound)), ("to", .int(repair.lostOffsets.upperBound))])),
                ("lostBatches", .int(repair.lostBatches.count)), ("bytesRemoved", .int(repair.bytesRemoved)),
                ("lostAndFound", .array(repair.quarantine.map(JSONValue.string))),
            ])
        }
        var lines = report.repairs.map { repair in
            "zone \(InspectedRecord.word(repair.partition)): cut at \(repair.file) position \(repair.position) (\(repair.reason)); "
                + "offsets \(repair.lostOffsets.lowerBound)..<\(repair.lostOffsets.upperBound) lost, "
                + "\(repair.bytesRemoved) bytes moved to " + repair.quarantine.joined(separator: ", ")
        }
        lines += report.restoredFiles.map { "restored \($0)" }
        lines += report.finishedSwaps.map { "finished an interrupted compaction's swap: \($0)" }
        lines += report.quarantinedSwaps.map { "moved a damaged compaction swap file to \($0)" }
        if lines.isEmpty { lines = ["the store is sound: nothing to repair"] }
        let json = JSONValue.object([
            ("repairs", .array(repairs)), ("restoredFiles", .array(report.restoredFiles.map(JSONValue.string))),
            ("finishedSwaps", .array(report.finishedSwaps.map(JSONValue.string))),
            ("quarantinedSwaps", .array(report.quarantinedSwaps.map(JSONValue.string))),
        ])
        return Result(json: json, lines: lines)
    }

    /// Writes a checkpoint of the store at `store` now (`Database.checkpoint()`): the key index,
    /// so that the next open replays only what follows.
    package static func checkpoint(
        store: String, lockTimeout: Duration = Database.defaultLockTimeout, logger: Logger = Logger(label: "recordlog")
    ) async throws -> Result {
        try requireStore(store)
        let database = try await Database(directory: store, lockTimeout: lockTimeout, compaction: .manual, logger: logger)
        do {
            try database.checkpoint()
            let report = database.openReport
            try database.close()
            let snapshots = FileSystemListing.files(in: store + "/snapshots")
            return Result(
                json: .object([
                    ("replayedEvents", .int(Int64(report.replayedEvents))),
                    ("snapshots", .array(snapshots.map { .object([("file", .string($0.name)), ("bytes", .int($0.bytes))]) })),
                ]),
                lines: ["checkpoint written after replaying \(report.replayedEvents) events"]
                    + snapshots.map { "  \($0.name): \($0.bytes) bytes" })
        } catch {
            try? database.close()
            throw error
        }
    }

    /// Whether another process or database has the store at `store` open for writing now: the
    /// tool then says that it waits (nil where that cannot be told).
    package static func writerIsLive(store: String) -> Bool? {
        StoreCheck.writerIsLive(store: store)
    }

    /// Refuses a directory that is not a store: opening one as a writer would create a store in it.
    ///
    /// - Throws: `LogError.notAStore`.
    static func requireStore(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path + "/recordlog.meta") else {
            throw LogError.notAStore(path: path, reason: "it holds no recordlog.meta: not a RecordLog store (nothing was changed)")
        }
    }

    static func json(_ report: CompactionReport) -> JSONValue {
        .object([
            ("zone", .string(report.partition)), ("bytesBefore", .int(report.bytesBefore)), ("bytesAfter", .int(report.bytesAfter)),
            ("recordsRead", .int(report.recordsRead)), ("recordsRemoved", .int(report.recordsRemoved)),
            ("tombstonesDropped", .int(report.tombstonesDropped)), ("segmentsBefore", .int(report.segmentsBefore)),
            ("segmentsAfter", .int(report.segmentsAfter)), ("logStartOffset", .int(report.logStartOffset)),
            ("expiryOffset", .int(report.expiryOffset)),
        ])
    }
}

/// The regular files of a directory and their sizes, sorted by name; none when it is missing.
enum FileSystemListing {
    static func files(in directory: String) -> [(name: String, bytes: Int64)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().compactMap { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            guard let size = attributes?[.size] as? NSNumber else { return nil }
            return (name, size.int64Value)
        }
    }
}
