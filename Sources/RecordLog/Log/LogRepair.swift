import Logging
import StorageKit

/// What `Log.repair` removed from one partition.
public struct PartitionRepair: Sendable, Equatable {
    /// A valid batch found after the damage and removed with it (offsets stay dense, so nothing
    /// after a damaged batch can be kept).
    public struct LostBatch: Sendable, Equatable {
        public var baseOffset: Int64
        public var lastOffset: Int64
        public var recordCount: Int
    }

    /// The partition repaired.
    public var partition: String
    /// The segment holding the damage.
    public var file: String
    /// Where the damage starts; the log now ends here.
    public var position: Int64
    /// The first offset that is no longer in the log: the new end offset.
    public var firstLostOffset: Int64
    /// What was wrong at `position`.
    public var reason: String
    /// Valid batches that followed the damage, now removed.
    public var lostBatches: [LostBatch]
    /// Every offset no longer in the log that is known to have been written: from
    /// `firstLostOffset` to the end of the last lost batch, or further, to the partition's durable
    /// point, when the damaged batches had been acknowledged as durable.
    public var lostOffsets: Range<Int64>
    /// Bytes removed from the log, all kept in `quarantine`.
    public var bytesRemoved: Int64
    /// Files under `<store>/lost+found` holding every removed byte.
    public var quarantine: [String]
}

/// What `Log.repair` did: one entry per damaged partition; empty when the store was sound.
public struct RepairReport: Sendable, Equatable {
    public var repairs: [PartitionRepair] = []
    /// The store's own small files rewritten because they were damaged (`recordlog.meta`, a
    /// zone's `zone.name` restored from its directory's name).
    public var restoredFiles: [String] = []
    /// Swaps of a compaction that a crash interrupted, finished as a writer's open finishes them
    /// (FORMAT.md §13.1): each `.log.swap` file, now the segment it replaced.
    public var finishedSwaps: [String] = []
    /// Swap files that did not hold whole batches, moved to `<store>/lost+found` (their paths
    /// there); the segments they were to replace are repaired as they stand.
    public var quarantinedSwaps: [String] = []
}

extension Log {
    /// Salvages a damaged store: each partition is cut at its first invalid batch, and every
    /// removed byte is moved to `<store>/lost+found`. The report names exactly what was lost.
    ///
    /// Run it when opening throws `LogError.corruptBatch`; then open the store as usual. Offsets
    /// at and after `firstLostOffset` will be given to new events again. First it settles what
    /// a compaction left half done, exactly as a writer's open does (FORMAT.md §13.1), so that a
    /// swap under way is finished rather than taken for missing segments.
    ///
    /// - Throws: `LogError.locked` when another writer has the store open.
    public static func repair(
        directory: String, options: LogOptions = LogOptions(), logger: Logger = Logger(label: "RecordLog")
    ) throws -> RepairReport {
        let lock = try LogError.translating { try StoreLock(directory: directory) }
        return try repair(directory: directory, options: options, logger: logger, holding: lock)
    }

    /// Salvages a damaged store as ``repair(directory:options:logger:)`` does, waiting up to
    /// `lockTimeout` for another writer — in this process or another — to close it first.
    ///
    /// ```swift
    /// let report = try await Log.repair(directory: path, lockTimeout: .seconds(5))
    /// ```
    ///
    /// - Throws: `LogError.locked` when the store is still open for writing after `lockTimeout`.
    public static func repair(
        directory: String, options: LogOptions = LogOptions(), lockTimeout: Duration, logger: Logger = Logger(label: "RecordLog")
    ) async throws -> RepairReport {
        let lock = try await LogError.translating { try await StoreLock.acquire(directory: directory, timeout: lockTimeout) }
        return try repair(directory: directory, options: options, logger: logger, holding: lock)
    }

    private static func repair(directory: String, options: LogOptions, logger: Logger, holding lock: StoreLock) throws -> RepairReport {
        return try LogError.translating {
            defer { withExtendedLifetime(lock) {} }
            var report = RepairReport()
            let marker = FileSystem.join(directory, StoreLayout.markerFile)
            do {
                try StoreLayout.prepare(directory, create: false)
            } catch LogError.damagedFile(let path, _) where path == marker {
                try FileSystem.writeAtomically(Array(StoreLayout.markerText.utf8), to: marker, directory: directory)
                report.restoredFiles.append(marker)
                logger.warning("restored the store's marker file", metadata: ["file": "\(marker)"])
            }
            let zonesDirectory = FileSystem.join(directory, StoreLayout.zonesDirectory)
            let checkpoint = RecoveryCheckpoint.read(directory: directory)
            for name in try FileSystem.list(zonesDirectory) where !name.hasPrefix(".") {
                let path = FileSystem.join(zonesDirectory, name)
                guard FileSystem.isDirectory(path) else { continue }
                if let restored = try PartitionFiles.restoreZoneName(directory: path) {
                    report.restoredFiles.append(restored)
                    logger.warning("restored a zone's name file from its directory's name", metadata: ["file": "\(restored)"])
                }
                try settleCompaction(partitionDirectory: path, name: name, store: directory, options: options, logger: logger, report: &report)
                let durable = max(checkpoint?[name] ?? 0, DurableEnd.read(partitionDirectory: path)?.nextOffset ?? 0)
                let repairer = PartitionRepairer(
                    store: directory, directory: path, directoryName: name, durable: durable, options: options)
                if let repair = try repairer.repair() {
                    report.repairs.append(repair)
                    logger.warning(
                        "repaired partition",
                        metadata: ["partition": "\(repair.partition)", "firstLostOffset": "\(repair.firstLostOffset)", "bytes": "\(repair.bytesRemoved)"])
                }
            }
            if !report.repairs.isEmpty || !report.restoredFiles.isEmpty || !report.quarantinedSwaps.isEmpty {
                // Validate everything on the next open.
                try FileSystem.remove(FileSystem.join(directory, RecoveryCheckpoint.fileName))
                try FileSystem.syncDirectory(directory)
            }
            return report
        }
    }
}

extension Log {
    /// Settles a compaction a crash interrupted in the partition at `path` as a writer's open
    /// does (`PartitionLoader.settleCompaction`). A swap file that is not whole — damage: it was
    /// synced before it got its name — is moved to `lost+found` and the segments are then
    /// repaired as they stand. A damaged cleaner checkpoint leaves the segments below the log
    /// start alone (the open reports the file).
    private static func settleCompaction(
        partitionDirectory path: String, name: String, store: String, options: LogOptions, logger: Logger,
        report: inout RepairReport
    ) throws {
        let loader = PartitionLoader(directory: path, options: options, logger: logger)
        let logStart = (try? CleanerCheckpoint.read(directory: path))?.logStartOffset ?? 0
        var recovery = RecoveryReport()
        while true {
            do {
                try loader.settleCompaction(logStart: logStart, report: &recovery)
                break
            } catch LogError.corruptBatch(let file, _, _, let reason) where file.hasSuffix(SegmentName.swapSuffix) {
                let lostAndFound = FileSystem.join(FileSystem.join(store, StoreLayout.lostAndFound), name)
                try FileSystem.makeDirectory(FileSystem.join(store, StoreLayout.lostAndFound))
                try FileSystem.makeDirectory(lostAndFound)
                let target = FileSystem.join(lostAndFound, String(file.split(separator: "/").last ?? "segment.log.swap"))
                try FileSystem.rename(file, target)
                try FileSystem.syncDirectory(lostAndFound)
                try FileSystem.syncDirectory(path)
                report.quarantinedSwaps.append(target)
                logger.warning("moved a damaged compaction swap file to lost+found", metadata: ["file": "\(file)", "reason": "\(reason)"])
            }
        }
        report.finishedSwaps += recovery.finishedSwaps
    }
}

/// Finds a partition's first damaged batch — what the writer's open refuses (`LogSegment.validate`) —
/// and cuts the log there. A torn tail or preallocated zeros are left to the next open.
private struct PartitionRepairer {
    let store: String
    let directory: String
    let directoryName: String
    /// Every offset below it was acknowledged as durable.
    let durable: Int64
    let options: LogOptions

    func repair() throws -> PartitionRepair? {
        let zone = String(decoding: try FileSystem.readAll(FileSystem.join(directory, PartitionFiles.zoneNameFile)), as: UTF8.self)
        let bases = try FileSystem.list(directory).compactMap { SegmentName.baseOffset(of: $0, suffix: SegmentName.logSuffix) }.sorted()
        var expected = bases.first ?? 0
        var last: (file: OpenFile, base: Int64, size: Int64)?
        for (index, base) in bases.enumerated() {
            let path = segmentPath(base)
            let file = try OpenFile(path: path, writable: true)
            let size = try file.size()
            last = (file, base, size)
            let scanner = SegmentScanner(file: file, fileSize: size, maxBatchBytes: options.maxBatchBytes)
            let damage: (position: Int64, reason: String)?
            let later = bases[(index + 1)...]
            if base != expected {
                damage = (0, "segment starts at offset \(base), expected \(expected)")
            } else {
                let validation = try LogSegment.validate(
                    file: file, baseOffset: base, durableOffset: durable, writerLive: false, maxBatchBytes: options.maxBatchBytes,
                    laterData: { try later.contains { try OpenFile(path: segmentPath($0), writable: false).size() > 0 } })
                expected = validation.outcome.nextOffset
                damage = validation.invalid.flatMap { position, problem, verdict in
                    guard case .corruption(let why) = verdict else { return nil }
                    return (position, "\(problem.description); \(why)")
                }
            }
            guard let damage else { continue }
            return try cut(
                zone: zone, file: file, base: base, scanner: scanner, size: size, damage: damage, firstLost: expected,
                later: later)
        }
        if let last, expected < durable {
            // Whole durable batches are missing: nothing to move, but the loss is reported and
            // the mark brought back to what the files hold, so the store opens again.
            try resetMark(DurableEnd(segmentBase: last.base, position: last.size, nextOffset: expected))
            return PartitionRepair(
                partition: zone, file: last.file.path, position: last.size, firstLostOffset: expected,
                reason: "the log ends at offset \(expected), but offsets below \(durable) had been made durable",
                lostBatches: [], lostOffsets: expected..<durable, bytesRemoved: 0, quarantine: [])
        }
        return nil
    }

    /// Brings the durable-end mark back to the cut log.
    private func resetMark(_ mark: DurableEnd) throws {
        try DurableEndFile(partitionDirectory: directory).reset(to: mark)
    }

    private func segmentPath(_ base: Int64) -> String {
        LogSegment.path(directory: directory, baseOffset: base)
    }

    private func cut(
        zone: String, file: OpenFile, base: Int64, scanner: SegmentScanner, size: Int64, damage: (position: Int64, reason: String),
        firstLost: Int64, later: ArraySlice<Int64>
    ) throws -> PartitionRepair {
        let lostAndFound = FileSystem.join(FileSystem.join(store, StoreLayout.lostAndFound), directoryName)
        try FileSystem.makeDirectory(FileSystem.join(store, StoreLayout.lostAndFound))
        try FileSystem.makeDirectory(lostAndFound)
        var lost = try validBatches(scanner: scanner, from: damage.position)
        var quarantine: [String] = []
        var removed = size - damage.position

        // The damaged segment's tail: copied out, then cut.
        let stem = String(file.path.split(separator: "/").last ?? "segment")
        let tailPath = FileSystem.join(lostAndFound, "\(stem).from-\(damage.position)")
        let tail = try OpenFile(path: tailPath, writable: true, create: true)
        try tail.truncate(to: 0)
        try tail.write(try file.read(at: damage.position, count: Int(removed)), at: 0)
        try tail.syncData()
        quarantine.append(tailPath)
        try file.truncate(to: damage.position)
        try file.syncData()
        try removeIndexes(of: file.path)

        // Later segments: moved whole.
        for base in later {
            let path = segmentPath(base)
            let laterFile = try OpenFile(path: path, writable: false)
            let laterSize = try laterFile.size()
            let laterScanner = SegmentScanner(file: laterFile, fileSize: laterSize, maxBatchBytes: options.maxBatchBytes)
            lost += try validBatches(scanner: laterScanner, from: 0)
            removed += laterSize
            let target = FileSystem.join(lostAndFound, SegmentName.stem(base) + SegmentName.logSuffix)
            try FileSystem.rename(path, target)
            try removeIndexes(of: path)
            quarantine.append(target)
        }
        try FileSystem.syncDirectory(lostAndFound)
        try FileSystem.syncDirectory(directory)
        try resetMark(DurableEnd(segmentBase: base, position: damage.position, nextOffset: firstLost))
        let lastLost = max(durable, (lost.map(\.lastOffset).max() ?? -1) + 1, firstLost)
        return PartitionRepair(
            partition: zone, file: file.path, position: damage.position, firstLostOffset: firstLost, reason: damage.reason,
            lostBatches: lost, lostOffsets: firstLost..<lastLost, bytesRemoved: removed, quarantine: quarantine)
    }

    /// Every batch at or after `position` that is valid on its own.
    private func validBatches(scanner: SegmentScanner, from position: Int64) throws -> [PartitionRepair.LostBatch] {
        var found: [PartitionRepair.LostBatch] = []
        var next = position
        while let start = try scanner.firstValidBatch(from: next) {
            let header = try scanner.file.read(at: start, count: RecordBatchHeader.size).withUnsafeBytes {
                RecordBatchHeader(parsing: $0)
            }
            guard let header else { break }
            found.append(.init(baseOffset: header.baseOffset, lastOffset: header.lastOffset, recordCount: Int(header.recordCount)))
            next = start + Int64(header.totalSize)
        }
        return found
    }

    private func removeIndexes(of segmentPath: String) throws {
        let stem = String(segmentPath.dropLast(SegmentName.logSuffix.count))
        try FileSystem.remove(stem + SegmentName.indexSuffix)
        try FileSystem.remove(stem + SegmentName.timeIndexSuffix)
    }
}
