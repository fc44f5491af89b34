import Foundation
import Logging
import RecordLog
import RecordStore
import StorageKit

/// A PostgreSQL-backed database's zones as one node serves them: a **mirror** — an ordinary
/// store directory of segment files, read locally — of the rows every node shares
/// (``PostgresLog``). It is the `PartitionedLog` a `Database` of a cluster node runs on.
///
/// - **Writes** go to the mirror and then, in order, through PostgreSQL's fence
///   (``PostgresMirrorPartition``); a save is acknowledged once PostgreSQL has it.
/// - **Other nodes' writes** arrive by ``pull()`` (one query of the heads; the new rows of each
///   zone that moved) and ``refresh()``, which the database runs under its lock before it
///   applies them: the owner calls `Database.refresh()` before each request, and the database's
///   watcher every refresh interval.
/// - **A refusal** (another node appended first, or PostgreSQL failed mid-append) poisons the
///   log (``failure``): the owner abandons the database and opens it again, which checks the
///   mirror against the rows and keeps only what they hold.
///
/// The mirror is disposable: ``open(directory:remote:logger:)`` drops any zone whose files do
/// not match the rows and fetches it again, and deleting the directory costs only a rebuild.
/// Its files are written without fsync — PostgreSQL is what makes a save durable.
package final class PostgresMirrorLog: PartitionedLog {
    /// What a pull found for one zone, for the next refresh to install.
    private struct Incoming {
        var generation: Int64
        var batches: [RecordBatch]
    }

    private struct State {
        var partitions: [String: PostgresMirrorPartition] = [:]
        /// Deletions of zones still on their way to PostgreSQL, which a zone created again
        /// under the same name waits for.
        var deletions: [String: Task<Void, any Error>] = [:]
        var incoming: [String: Incoming] = [:]
        /// Set when a pull finds that the mirror cannot follow the rows in place (a zone of
        /// another generation, or gone, under files this node wrote).
        var failure: LogError?
        var closed = false
        /// The zones the open dropped and fetched again.
        var refetched: [String] = []
    }

    /// One pull at a time; a caller arriving during one waits for the next, which every caller
    /// arriving meanwhile shares: each caller sees every row committed before it called.
    private struct Pulls {
        var running: Task<Void, any Error>?
        var queued: Task<Void, any Error>?
    }

    /// The mirror's directory (a store directory).
    package let directory: String
    /// The rows.
    package let remote: PostgresLog
    private let local: Log
    private let logger: Logger
    /// How old a commit must be before a background compaction replaces its row
    /// (``PostgresMirrorPartition/compact(_:)``).
    private let compactionLag: Duration
    /// The zones the open found not matching the rows, dropped and fetched again.
    package var refetchedZones: [String] { state.withLock { $0.refetched } }
    private let state = LockedValue(State())
    private let pulls = LockedValue(Pulls())

    package var options: LogOptions { local.options }
    package var partitionNames: [String] { state.withLock { $0.partitions.keys.sorted() } }
    package var syncCount: Int { 0 }
    package var isShared: Bool { true }

    /// What poisoned the log, if anything did: the first refusal of any zone's append, or a
    /// pull that found the mirror unable to follow. The owner must abandon the database and
    /// open it again.
    package var failure: LogError? {
        let (own, partitions) = state.withLock { ($0.failure, Array($0.partitions.values)) }
        return own ?? partitions.lazy.compactMap(\.failure).first
    }

    private init(directory: String, remote: PostgresLog, local: Log, compactionLag: Duration, logger: Logger) {
        self.directory = directory
        self.remote = remote
        self.local = local
        self.compactionLag = compactionLag
        self.logger = logger
    }

    /// Opens the mirror in `directory` (created when missing) and brings it level with the rows:
    /// each zone's files are kept only as far as they match PostgreSQL (what lies above the end
    /// `postgres-mirror.json` recorded is compared batch by batch), a zone that does not match
    /// is dropped and fetched again, and every zone's new rows are fetched.
    ///
    /// - Throws: `LogError.sharedLogUnavailable` when PostgreSQL cannot be read; `LogError`
    ///   from the files (`locked` when another process has the mirror open).
    /// - Parameter compactionLag: how old a commit must be before a background compaction of the
    ///   zone's rows replaces its row (``PostgresMirrorPartition/compact(_:)``): long enough for
    ///   every serving node to have pulled it.
    package static func open(
        directory: String, remote: PostgresLog, compactionLag: Duration = .seconds(5), logger: Logger
    ) async throws -> PostgresMirrorLog {
        var options = LogOptions(durability: .noSyncUnsafe)
        options.compression = .lz4
        let local = try await Log.open(directory: directory, options: options, lockTimeout: .seconds(5), logger: logger)
        do {
            let log = PostgresMirrorLog(directory: directory, remote: remote, local: local, compactionLag: compactionLag, logger: logger)
            try await log.level(with: MirrorMarks.read(directory: directory))
            return log
        } catch {
            try? local.close()
            throw error
        }
    }

    /// The open's check and catch-up (see ``open(directory:remote:logger:)``).
    private func level(with marks: MirrorMarks) async throws {
        let heads = try await Self.shared { try await remote.heads() }
        var discarded = false
        var refetched: [String] = []
        var partitions: [String: PostgresMirrorPartition] = [:]
        for name in local.partitionNames {
            let file = try local.partition(named: name)
            let mark = marks.zones[name]
            // Files of the head's generation (or of no recorded one) that equal the rows above
            // what was recorded as confirmed — everything, with no record — are kept.
            if let head = heads[name], mark == nil || mark?.generation == head.generation,
                try await matches(file, from: min(mark?.confirmedEnd ?? 0, file.endOffset), head: head)
            {
                partitions[name] = PostgresMirrorPartition(
                    file: file, remote: remote, compression: options.compression, compactionLag: compactionLag, generation: head.generation,
                    confirmedEnd: file.endOffset, headExists: true)
            } else if heads[name] == nil, let mark, file.endOffset == 0 {
                // Created here, never written: its head comes with its first append.
                partitions[name] = PostgresMirrorPartition(
                    file: file, remote: remote, compression: options.compression, compactionLag: compactionLag, generation: mark.generation, confirmedEnd: 0, headExists: false)
            } else {
                logger.info("the mirror's zone does not match PostgreSQL; fetching it again", metadata: ["zone": "\(name)", "mirror": "\(directory)"])
                try local.deletePartition(named: name)
                refetched.append(name)
                discarded = true
            }
        }
        // A checkpoint may cover what the dropped files held: the database replays instead.
        if discarded { try Database.discardCheckpoints(directory: directory) }
        for (name, first) in heads.sorted(by: { $0.key < $1.key }) {
            var head = first
            var partition: PostgresMirrorPartition
            /// Whether the zone's files are being built from its rows in this open.
            var built = partitions[name] == nil
            if let existing = partitions[name] {
                partition = existing
            } else {
                partition = PostgresMirrorPartition(
                    file: try local.createPartition(named: name), remote: remote, compression: options.compression, compactionLag: compactionLag,
                    generation: head.generation, confirmedEnd: 0, headExists: true)
                partitions[name] = partition
            }
            /// Drops the zone's files, to be fetched again from its first row.
            func refetch(_ reason: String) throws {
                logger.info("\(reason); fetching the zone again", metadata: ["zone": "\(name)", "mirror": "\(directory)"])
                try local.deletePartition(named: name)
                if !discarded { try Database.discardCheckpoints(directory: directory) }
                discarded = true
                if !refetched.contains(name) { refetched.append(name) }
                partition = PostgresMirrorPartition(
                    file: try local.createPartition(named: name), remote: remote, compression: options.compression, compactionLag: compactionLag,
                    generation: head.generation, confirmedEnd: 0, headExists: true)
                partitions[name] = partition
                built = true
            }
            while true {
                while partition.endOffset < head.endOffset {
                    let batches = try await Self.shared { try await remote.batches(of: name, from: partition.endOffset) }
                    if let first = batches.first, first.header.baseOffset < partition.endOffset {
                        // A compaction replaced the rows around the mirror's end (FORMAT.md §14.5).
                        try refetch("the zone was compacted past the mirror's end")
                        continue
                    }
                    guard try partition.install(batches) else {
                        throw LogError.sharedLogUnavailable(reason: "zone \(name) of \(remote.database) ends at \(head.endOffset) but its rows stop at \(partition.endOffset)")
                    }
                }
                guard built else { break }
                // Files built from the rows hold what compaction left of them, and answer change
                // tokens as the rows' head says (FORMAT.md §14.5) — provided no compaction dropped
                // deletes while they were read, which may have mixed two versions of the rows.
                let now = try await Self.shared { try await remote.heads() }[name]
                guard let now, now.generation == head.generation else { break }
                if now.dropSequence == head.dropSequence {
                    try partition.file.adoptCleanerState(expiryOffset: head.expiryOffset, dropSequence: head.dropSequence)
                    break
                }
                head = now
                try refetch("a compaction dropped deletes while the zone was read")
            }
        }
        state.withLock { state in
            state.partitions = partitions
            state.refetched = refetched
        }
        try writeMarks()
    }

    /// Whether the mirror's batches from `offset` on are exactly the rows PostgreSQL holds there.
    private func matches(_ file: Partition, from offset: Int64, head: PostgresLog.Head) async throws -> Bool {
        guard file.endOffset <= head.endOffset else { return false }
        var next = offset
        while next < file.endOffset {
            let rows = try await Self.shared { try await remote.batches(of: file.name, from: next) }
            let mine = try file.batches(from: next, maxBytes: 4 << 20)
            guard let first = rows.first, first.header.baseOffset == next else { return false }
            for (row, batch) in zip(rows, mine) {
                guard row.header.baseOffset == batch.header.baseOffset, row.bytes.elementsEqual(batch.bytes) else { return false }
                next = row.header.lastOffset + 1
            }
            if mine.isEmpty { return false }
        }
        return next == file.endOffset
    }

    package func partition(named name: String) throws -> PostgresMirrorPartition {
        guard let partition = state.withLock({ $0.partitions[name] }) else { throw LogError.partitionNotFound(name) }
        return partition
    }

    /// The zone's partition; a new one is created in the mirror only (its head row in
    /// PostgreSQL comes with its first append, in a generation of its own).
    @discardableResult
    package func createPartition(named name: String) throws -> PostgresMirrorPartition {
        try state.withLock { state in
            guard !state.closed else { throw LogError.closed }
            if let existing = state.partitions[name] { return existing }
            let partition = PostgresMirrorPartition(
                file: try local.createPartition(named: name), remote: remote, compression: options.compression, compactionLag: compactionLag,
                generation: Int64.random(in: Int64.min...Int64.max), confirmedEnd: 0, headExists: false, after: state.deletions[name])
            state.partitions[name] = partition
            return partition
        }
    }

    /// Removes the zone from the mirror at once and from PostgreSQL after the appends already
    /// made to it; a zone created again under the name waits for that.
    package func deletePartition(named name: String) throws {
        try state.withLock { state in
            guard !state.closed else { throw LogError.closed }
            guard let partition = state.partitions.removeValue(forKey: name) else { throw LogError.partitionNotFound(name) }
            try local.deletePartition(named: name)
            let remote = self.remote
            let previous = state.deletions[name]
            state.deletions[name] = Task {
                await partition.settle()
                _ = try? await previous?.value
                do { try await remote.deleteZone(name) } catch {
                    throw PostgresMirrorPartition.refusal(error, zone: name, at: 0)
                }
            }
        }
    }

    /// Nothing to sync: a save is durable once PostgreSQL has it.
    package func sync() throws {}

    package func hasNewDurableData() -> Bool { true }

    /// Fetches the rows other nodes committed since the last pull (see ``Pulls`` for how
    /// concurrent callers share one).
    package func pull() async throws {
        let pull: Task<Void, any Error> = pulls.withLock { pulls in
            if let queued = pulls.queued { return queued }
            let previous = pulls.running
            let task = Task { [self] in
                _ = try? await previous?.value
                self.pulls.withLock { $0.running = $0.queued; $0.queued = nil }
                try await pullOnce()
            }
            pulls.queued = task
            return task
        }
        try await pull.value
    }

    private func pullOnce() async throws {
        let heads = try await Self.shared { try await remote.heads() }
        let partitions = state.withLock { $0.partitions }
        var incoming: [String: Incoming] = [:]
        var failure: LogError?
        for (name, partition) in partitions where heads[name] == nil && partition.headExists && partition.isSettled {
            // Deleted by another node (its own deletion would have removed the partition).
            failure = failure ?? .fenced(partition: name, expectedEnd: partition.endOffset, actualEnd: nil)
        }
        // Where each zone that moved is to be read from; then every zone's new rows in one statement.
        var wanted: [String: (generation: Int64, from: Int64)] = [:]
        for (name, head) in heads {
            if let partition = partitions[name] {
                guard partition.adopt(generation: head.generation) else {
                    // Deleted and created again by another node under files this node wrote.
                    failure = failure ?? .fenced(partition: name, expectedEnd: partition.endOffset, actualEnd: nil)
                    continue
                }
                let confirmed = partition.confirmedEnd
                guard head.endOffset > confirmed, partition.isSettled else { continue }
                wanted[name] = (head.generation, confirmed)
            } else if head.dropSequence > 0 {
                // A zone new to this node whose rows a compaction dropped deletes from: only an
                // open builds it, checking that no such compaction came while it read them.
                failure = failure ?? .sharedLogUnavailable(reason: "zone \(name) is new to this node and its rows were compacted; opening again")
            } else if head.endOffset > 0 {
                wanted[name] = (head.generation, 0)
            }
        }
        let found = try await Self.shared { try await remote.batches(since: wanted.mapValues(\.from)) }
        for (name, batches) in found {
            guard let generation = wanted[name]?.generation else { continue }
            incoming[name] = Incoming(generation: generation, batches: batches)
        }
        state.withLock { state in
            state.failure = state.failure ?? failure
            state.incoming.merge(incoming) { old, new in new.batches.first?.header.baseOffset == old.batches.first?.header.baseOffset ? new : old }
        }
    }

    /// Installs what the last pulls fetched into the mirror, creating the zones other nodes
    /// created; returns whether anything changed. Runs under the database's lock.
    package func refresh() throws -> Bool {
        let incoming = state.withLock { state in
            defer { state.incoming = [:] }
            return state.incoming
        }
        var changed = false
        for (name, found) in incoming.sorted(by: { $0.key < $1.key }) {
            let partition = try state.withLock { state -> PostgresMirrorPartition? in
                guard !state.closed else { throw LogError.closed }
                if let existing = state.partitions[name] { return existing.generation == found.generation ? existing : nil }
                let partition = PostgresMirrorPartition(
                    file: try local.createPartition(named: name), remote: remote, compression: options.compression, compactionLag: compactionLag,
                    generation: found.generation, confirmedEnd: 0, headExists: true)
                state.partitions[name] = partition
                return partition
            }
            if let partition, try partition.install(found.batches) { changed = true }
        }
        return changed
    }

    /// Closes the mirror's files and records how far each zone is confirmed.
    package func close() throws {
        let alreadyClosed = state.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !alreadyClosed else { return }
        do { try writeMarks() } catch {
            logger.warning("could not record the mirror's confirmed ends; the next open checks every zone whole", metadata: ["error": "\(error)"])
        }
        try local.close()
    }

    /// Waits until every append made so far has been confirmed or refused by PostgreSQL.
    package func settle() async {
        let partitions = state.withLock { Array($0.partitions.values) }
        for partition in partitions { await partition.settle() }
    }

    private func writeMarks() throws {
        var marks = MirrorMarks()
        for (name, partition) in state.withLock({ $0.partitions }) {
            marks.zones[name] = MirrorMarks.Mark(generation: partition.generation, confirmedEnd: partition.confirmedEnd)
        }
        try marks.write(directory: directory)
    }

    /// Runs a PostgreSQL call, turning its failure into the log's.
    static func shared<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as LogError { throw error } catch let error as PostgresLogError {
            throw LogError.sharedLogUnavailable(reason: error.description)
        } catch {
            throw LogError.sharedLogUnavailable(reason: String(reflecting: error))
        }
    }
}
