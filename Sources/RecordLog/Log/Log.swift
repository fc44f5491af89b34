import Logging
import StorageKit

/// A store: a directory of named partitions, each a Kafka-format segmented log.
///
/// Opening takes the store's write lock and recovers every partition, logging what it mends
/// (`Log.open(directory:options:lockTimeout:logger:)` waits for another writer to close first);
/// a read-only open takes no lock, changes nothing on disk, sees exactly what the writer has made
/// durable, and catches up with `refresh()` (FORMAT.md §7.2, §7.5).
///
/// ```swift
/// let log = try Log(directory: "/var/lib/myapp/store")
/// let notes = try log.createPartition(named: "Notes")
/// var batch = RecordBatchBuilder()
/// batch.append(key: "note-1", value: Array("hello".utf8))
/// let offsets = try await notes.append(batch)
/// try log.close()
/// ```
public final class Log: Sendable {
    /// The store directory.
    public let directory: String
    public let options: LogOptions
    /// What opening found and mended.
    package let recoveryReport: RecoveryReport
    let logger: Logger
    private let lock: StoreLock?
    let committer = GroupCommitter()
    /// Decompressed batches that reads ask to keep, for all the partitions.
    let batchCache: BatchCache
    private let partitions: LockedValue<[String: Partition]>
    /// The recovery points the checkpoint file holds, as last read or written: a save that would
    /// write the same points again is skipped (nil: not known, so the next save writes).
    private let savedCheckpoint: LockedValue<[String: Int64]?>
    private let closed = LockedValue(false)

    /// Opens (or, unless read-only, creates) the store at `directory`.
    ///
    /// - Throws: `LogError.locked` when another writer has it open, `LogError.notAStore` for a
    ///   directory that is not a store, `LogError.corruptBatch` for mid-log damage (see `repair`).
    public convenience init(directory: String, options: LogOptions = LogOptions(), logger: Logger = Logger(label: "RecordLog")) throws {
        try self.init(directory: directory, options: options, logger: logger, heldLock: nil)
    }

    /// Opens (or, unless read-only, creates) the store at `directory`, waiting up to `lockTimeout`
    /// for another writer — in this process or another — to close it first. A read-only open
    /// never waits: readers take no lock.
    ///
    /// ```swift
    /// let log = try await Log.open(directory: path, lockTimeout: .seconds(5))
    /// ```
    ///
    /// - Throws: `LogError.locked` when the store is still open for writing after `lockTimeout`;
    ///   otherwise as `init(directory:options:logger:)`.
    public static func open(
        directory: String, options: LogOptions = LogOptions(), lockTimeout: Duration,
        logger: Logger = Logger(label: "RecordLog")
    ) async throws -> Log {
        guard !options.readOnly else { return try Log(directory: directory, options: options, logger: logger) }
        let lock = try await LogError.translating {
            try FileSystem.makeDirectory(directory, durably: true)
            return try await StoreLock.acquire(directory: directory, timeout: lockTimeout)
        }
        return try Log(directory: directory, options: options, logger: logger, heldLock: lock)
    }

    /// Opens the store with the write lock `heldLock` already taken, or takes it now (unless
    /// read-only) when nil.
    private init(directory: String, options: LogOptions, logger: Logger, heldLock: StoreLock?) throws {
        do {
            self.directory = directory
            self.options = options
            self.logger = logger
            batchCache = BatchCache(capacity: options.batchCacheBytes)
            if options.readOnly {
                lock = nil
                try StoreLayout.prepare(directory, create: false)
            } else {
                try FileSystem.makeDirectory(directory, durably: true)
                lock = try heldLock ?? StoreLock(directory: directory)
                try StoreLayout.prepare(directory, create: true)
            }
            let zonesDirectory = FileSystem.join(directory, StoreLayout.zonesDirectory)
            let checkpoint = RecoveryCheckpoint.read(directory: directory)
            savedCheckpoint = LockedValue(checkpoint)
            var report = RecoveryReport()
            var loaded: [String: Partition] = [:]
            var loadedDirectories: Set<String> = []
            let zoneNames = FileSystem.isDirectory(zonesDirectory) ? try FileSystem.list(zonesDirectory) : []
            for name in zoneNames {
                let path = FileSystem.join(zonesDirectory, name)
                if name.hasPrefix(StoreLayout.temporaryPrefix) || name.hasPrefix(StoreLayout.deletedPrefix) {
                    // An interrupted creation or deletion: never visible as a zone.
                    if !options.readOnly {
                        try FileSystem.removeTree(path)
                        report.removedFiles.append(path)
                    }
                    continue
                }
                guard FileSystem.isDirectory(path) else { continue }
                let partition = try Self.loadPartition(
                    path, recoveryPoint: checkpoint?[name], options: options, logger: logger, report: &report)
                loadedDirectories.insert(name)
                loaded[partition.zone] = Partition(
                    name: partition.zone, directory: path, segments: partition.segments,
                    recoveryPoint: partition.recoveryPoint, cleaner: partition.cleaner, options: options, committer: committer, batchCache: batchCache,
                    storeLock: lock, durableEnd: options.readOnly ? nil : try DurableEndFile(partitionDirectory: path),
                    logger: logger)
            }
            partitions = LockedValue(loaded)
            recoveryReport = report
            for partition in loaded.values {
                installRollHandler(partition)
                try partition.publishOpenedEnd()
            }
            if !options.readOnly, let checkpoint, !Set(checkpoint.keys).isSubset(of: loadedDirectories) {
                // A zone deleted since the checkpoint was written: its recovery point must not
                // outlive it and be taken for a later zone's of the same name.
                try saveCheckpoint()
            }
            if !report.isClean { logger.notice("store recovered", metadata: ["directory": "\(directory)"]) }
        } catch let error as StorageError {
            throw LogError(error)
        }
    }

    /// Loads one partition directory. A read-only open looks again when what it meets may be
    /// the writer's work in progress — a roll or an append between its look at the durable mark
    /// and its scan, segments swapped by a compaction (`PartitionLoader.loadBesideWriter`).
    private static func loadPartition(
        _ path: String, recoveryPoint: Int64?, options: LogOptions, logger: Logger, report: inout RecoveryReport
    ) throws -> PartitionLoader.Loaded {
        let loader = PartitionLoader(directory: path, options: options, logger: logger)
        guard options.readOnly else { return try loader.load(recoveryPoint: recoveryPoint, report: &report) }
        return try loader.loadBesideWriter(recoveryPoint: recoveryPoint, report: &report)
    }

    /// The names of the store's partitions, sorted.
    public var partitionNames: [String] { partitions.withLock { $0.keys.sorted() } }

    /// An existing partition.
    ///
    /// - Throws: `LogError.partitionNotFound`.
    public func partition(named name: String) throws -> Partition {
        return try LogError.translating {
            guard let partition = partitions.withLock({ $0[name] }) else { throw LogError.partitionNotFound(name) }
            return partition
        }
    }

    /// The partition named `name`, created (durably) when it does not exist yet.
    @discardableResult
    public func createPartition(named name: String) throws -> Partition {
        return try LogError.translating {
            guard !options.readOnly else { throw LogError.readOnly }
            guard !closed.withLock({ $0 }) else { throw LogError.closed }
            let directoryName = try ZoneDirectoryName.encode(name)
            return try partitions.withLock { partitions in
                if let existing = partitions[name] { return existing }
                if let clash = partitions.values.first(where: { $0.directory.hasSuffix("/" + directoryName) }) {
                    throw LogError.partitionDirectoryConflict(partition: name, existing: clash.name)
                }
                let zonesDirectory = FileSystem.join(directory, StoreLayout.zonesDirectory)
                let path = try PartitionFiles.createPartitionDirectory(zonesDirectory: zonesDirectory, directoryName: directoryName, zone: name)
                var report = RecoveryReport()
                let loaded = try PartitionLoader(directory: path, options: options, logger: logger).load(recoveryPoint: 0, report: &report)
                let partition = Partition(
                    name: name, directory: path, segments: loaded.segments, recoveryPoint: 0, options: options,
                    committer: committer, batchCache: batchCache, storeLock: lock,
                    durableEnd: try DurableEndFile(partitionDirectory: path), logger: logger)
                installRollHandler(partition)
                try partition.publishOpenedEnd()
                partitions[name] = partition
                return partition
            }
        }
    }

    /// Removes a partition and all its events, durably.
    ///
    /// - Throws: `LogError.partitionNotFound`.
    public func deletePartition(named name: String) throws {
        try LogError.translating {
            guard !options.readOnly else { throw LogError.readOnly }
            guard !closed.withLock({ $0 }) else { throw LogError.closed }
            let directoryName = try partitions.withLock { partitions in
                guard let partition = partitions[name] else { throw LogError.partitionNotFound(name) }
                try partition.close()
                let zonesDirectory = FileSystem.join(directory, StoreLayout.zonesDirectory)
                let directoryName = String(partition.directory.split(separator: "/").last ?? "")
                let doomed = FileSystem.join(zonesDirectory, StoreLayout.deletedPrefix + directoryName)
                try FileSystem.rename(partition.directory, doomed)
                try FileSystem.syncDirectory(zonesDirectory)
                partitions[name] = nil
                return directoryName
            }
            // Before the files go: a recovery point left for this directory name would be taken
            // for a later partition's of the same name.
            try saveCheckpoint()
            try FileSystem.removeTree(
                FileSystem.join(FileSystem.join(directory, StoreLayout.zonesDirectory), StoreLayout.deletedPrefix + directoryName))
        }
    }

    /// Catches a read-only log up with the writer in another process: every partition takes in
    /// the batches its writer has made durable since (FORMAT.md §7.2), partitions created since
    /// appear and deleted ones go. A log open for writing is its own writer: nothing to do.
    ///
    /// - Returns: whether anything changed.
    /// - Throws: `LogError.corruptBatch` for damage below a partition's durable point.
    @discardableResult
    public func refresh() throws -> Bool {
        guard options.readOnly else { return false }
        return try LogError.translating {
            guard !closed.withLock({ $0 }) else { throw LogError.closed }
            let zonesDirectory = FileSystem.join(directory, StoreLayout.zonesDirectory)
            let names = FileSystem.isDirectory(zonesDirectory) ? try FileSystem.list(zonesDirectory) : []
            let present = Set(names.filter {
                !$0.hasPrefix(StoreLayout.temporaryPrefix) && !$0.hasPrefix(StoreLayout.deletedPrefix)
                    && FileSystem.isDirectory(FileSystem.join(zonesDirectory, $0))
            })
            var changed = false
            let known = partitions.withLock { partitions in
                // Gone (deleted by the writer, renamed away first): no longer served.
                let gone = partitions.filter { !present.contains(Self.directoryName($0.value)) }.keys
                for name in gone { partitions[name] = nil }
                changed = !gone.isEmpty
                return partitions
            }
            for partition in known.values where try partition.catchUp() { changed = true }
            let knownDirectories = Set(known.values.map(Self.directoryName))
            for name in present.subtracting(knownDirectories).sorted() {
                let path = FileSystem.join(zonesDirectory, name)
                // A partition being created: its name file is written last, before the rename
                // that makes the directory visible, so a visible one is whole.
                var report = RecoveryReport()
                let loaded = try Self.loadPartition(path, recoveryPoint: nil, options: options, logger: logger, report: &report)
                let partition = Partition(
                    name: loaded.zone, directory: path, segments: loaded.segments, recoveryPoint: loaded.recoveryPoint,
                    options: options, committer: committer, batchCache: batchCache, storeLock: nil, durableEnd: nil, logger: logger)
                partitions.withLock { $0[loaded.zone] = partition }
                changed = true
            }
            return changed
        }
    }

    /// Whether `refresh()` would find anything: a partition whose writer's durable-end mark
    /// lies beyond what this reader has read (or that has no usable mark, which only a look at
    /// its files can answer), or a partition directory created or removed since. Reads each
    /// partition's 1 KiB mark and lists the zones directory; changes nothing. False for a log
    /// open for writing, or closed.
    package func hasNewDurableData() -> Bool {
        guard options.readOnly, !closed.withLock({ $0 }) else { return false }
        let known = partitions.withLock { Array($0.values) }
        if known.contains(where: { $0.hasNewDurableBatches() }) { return true }
        let zonesDirectory = FileSystem.join(directory, StoreLayout.zonesDirectory)
        guard let names = try? FileSystem.list(zonesDirectory) else { return false }
        let present = Set(names.filter { !$0.hasPrefix(StoreLayout.temporaryPrefix) && !$0.hasPrefix(StoreLayout.deletedPrefix) })
        let knownNames = Set(known.map(Self.directoryName))
        if !knownNames.isSubset(of: present) { return true }
        return present.subtracting(knownNames).contains { FileSystem.isDirectory(FileSystem.join(zonesDirectory, $0)) }
    }

    private static func directoryName(_ partition: Partition) -> String {
        String(partition.directory.split(separator: "/").last ?? "")
    }

    /// Appends a batch to an existing partition; see `Partition.append(_:)`.
    public func append(_ batch: RecordBatchBuilder, to partition: String) async throws -> Range<Int64> {
        return try await LogError.translating {
            try await self.partition(named: partition).append(batch)
        }
    }

    /// How many group syncs (one fdatasync per file written since the previous one) have run
    /// since the log was opened. Durable appends minus this is what group commit saved.
    package var syncCount: Int { committer.syncCount }

    /// Makes every append so far durable. Needed only with `.noSyncUnsafe` durability.
    public func sync() throws {
        try LogError.translating {
            try committer.syncNow()
        }
    }

    /// Syncs every partition, writes index files and the recovery checkpoint, and releases the
    /// store's write lock. Later appends throw `LogError.closed`.
    public func close() throws {
        try LogError.translating {
            closed.withLock { $0 = true }
            let all = partitions.withLock { Array($0.values) }
            for partition in all { try partition.close() }
            if !options.readOnly { try saveCheckpoint() }
            lock?.release()
        }
    }

    private func installRollHandler(_ partition: Partition) {
        partition.onRollHandler.withLock { handler in
            handler = { [weak self] in
                do { try self?.saveCheckpoint() } catch {
                    self?.logger.warning("could not save the recovery checkpoint", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// Writes every partition's recovery point, unless the file holds exactly these already.
    func saveCheckpoint() throws {
        guard !options.readOnly else { return }
        try savedCheckpoint.withLock { saved in
            let points = partitions.withLock { partitions in
                partitions.values.reduce(into: [String: Int64]()) { points, partition in
                    points[String(partition.directory.split(separator: "/").last ?? "")] = partition.recoveryPoint
                }
            }
            guard points != saved else { return }
            saved = nil  // unknown until the write has succeeded
            try RecoveryCheckpoint.write(points, directory: directory)
            saved = points
        }
    }
}
