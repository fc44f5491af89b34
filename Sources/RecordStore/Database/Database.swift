import Foundation
import Logging
import RecordLog
import Synchronization
import StorageKit

/// A CloudKit-shaped database over a RecordLog store: zones are partitions, every save or delete
/// is an event appended to its zone's log, and a change token is a log offset.
///
/// ```swift
/// let database = try await Database(directory: "/var/lib/myapp/store")
/// var note = Record(recordType: "Note", recordID: RecordID(recordName: "n1"))
/// note["text"] = .string("Buy milk")
/// let saved = try await database.save(note)        // durable when it returns
/// let changes = try await database.fetchZoneChanges(in: .default, since: nil)
/// ```
///
/// ## Concurrency
///
/// A `Database` is `Sendable`: call it from any task. Its one concurrency story, below RecordStore
/// included, uses these primitives and no others:
/// - **One state lock** (`LockedValue`, a pthread mutex ThreadSanitizer can see) per database,
///   partition and cache, held only for work that never suspends: a commit plans, encodes,
///   writes (`pwrite` into the page cache) and applies itself under the database's lock, so the
///   state moves in log order.
/// - **Continuations** for every wait a caller may have to make, so that waiting suspends a task
///   and never blocks a cooperative thread: durability (the group committer), a view's queued
///   folds (`ViewFeed`), zone and subscription changes (`AsyncLock`, a lock held across the
///   durable write), and subscription streams (`AsyncStream`).
/// - **Serial dispatch queues** for what must block or take long: every `fdatasync` runs on the
///   group committer's queue, a large commit's fold on each view's queue, and every compaction
///   (asked for, or due by the ``CompactionPolicy``) on the database's compaction queue, which
///   holds up a writer only while a cleaned segment takes the old ones' place. A read-only
///   database's watcher (`StoreWatcher`) is a timer on a serial queue of its own: every
///   `refreshInterval` it reads the writer's durable-end marks there and, when they moved,
///   starts one ``refresh()`` as a task (the next look waits for it to finish); `close()`
///   cancels the timer.
/// - **Fork-join on a second core** (`SecondThread`, `ReplayPipeline`) for CPU work split in two:
///   the caller does one half and then waits for the other, which already runs on a thread of
///   its own — never for a task, a lock or I/O, so the wait is bounded by the work and cannot
///   starve the cooperative pool. An open reads its key index checkpoint on a thread of the
///   global queue while the log opens, and awaits it through a continuation
///   (`CheckpointPrefetch`). `CommitTuning.off` turns every split off.
/// - **Atomics** for flags read on every request (closed), process-wide switches, and the
///   address of each snapshot text page once decompressed and kept (`CompressedPages`), which
///   every text read loads.
/// - **Reads on the caller's thread** of bytes already in the page cache, as every fetch reads
///   the log: a read-only database's catch-up with its writer process (``refresh()``, before
///   each read) reads each zone's 1 KiB durable-end mark and, when it moved, validates and
///   replays only the new batches, under the administration lock and then the state lock —
///   the same whether a read or the watcher started it.
/// - **Polling with a sleep** for the one wait on another process: opening for writing while
///   another writer holds the store's lock retries a non-blocking `flock` with `Task.sleep`
///   between attempts (1 to 16 ms, jittered) until `lockTimeout`. A blocking `flock` on a
///   thread of its own was the alternative; it has no timeout and cannot be cancelled, so the
///   thread would outlive the open that gave up. A sleep holds no thread at all.
///
/// `close()`, `checkpoint()` and `register(_:)` are synchronous by contract and do their disk
/// work (checkpoint files, replay) on the caller's thread: call them at startup and shutdown, or
/// from a thread of your own, not in a hot loop of tasks.
public final class Database: Sendable {
    struct State: Sendable {
        var zones: [ZoneID: ZoneState] = [:]
        var openReport = OpenReport()
        /// Registered materialized views, fed every commit in log order (each through its `ViewFeed`).
        var views: [ViewSink] = []
        /// The zones' positions the checkpoint on disk covers exactly, when known: a checkpoint
        /// of an unchanged store rewrites nothing.
        var checkpointed: [String: ZonePosition]?
        /// The views whose snapshot on disk covers `checkpointed`.
        var currentViewSnapshots: Set<String> = []
        /// The buffers commits encode into, reused from one commit to the next.
        var commitBuffers = CommitBuffers()
        /// How far a read-only database has read the system partition (zones, subscriptions).
        var systemReplayedEnd: Int64 = 0

        /// Each zone's incarnation and end offset now.
        var positions: [String: ZonePosition] {
            Dictionary(zones.values.map { ($0.zoneID.zoneName, ZonePosition(incarnation: $0.incarnation, offset: $0.partition.endOffset)) },
                uniquingKeysWith: { first, _ in first })
        }
    }

    /// The store directory; nil for a database made by ``inMemory(maximumItemsPerRequest:logger:)``,
    /// which has none.
    public let directory: String?
    /// The zones' partitions and the system partition: segment files under ``directory``, or
    /// memory (see `PartitionedLog`).
    let log: any PartitionedLog
    let system: any LogPartition
    /// Sixteen random bytes naming this store: a change token from another store is refused.
    let storeID: [UInt8]
    let state: LockedValue<State>
    /// Set once by `close()`. Read without the state lock: every request checks it first, and
    /// taking the lock for it made concurrent writers queue twice per commit.
    private let closed = Atomic<Bool>(false)
    let subscriptions = SubscriptionHub()
    /// Serializes zone and subscription changes, whose durable write must finish before the next.
    let administration = AsyncLock()
    /// Serializes checkpoints, which write their files outside the state lock.
    let checkpointing = LockedValue(())
    /// How the open rebuilt the current state.
    public var openReport: OpenReport { state.withLock { $0.openReport } }
    let logger: Logger
    /// The performance tricks' thresholds, taken when the database opened (also for its views'
    /// reads, which a view's owner passes on).
    package let tuning: CommitTuning
    /// Runs compactions, asked for or due (``CompactionPolicy``), on a queue of its own.
    let compactor: ZoneCompactor
    /// A read-only database's watch on the writer's durable commits; nil otherwise.
    let watcher: StoreWatcher?

    /// Whether this database was opened read-only, beside the store's writer
    /// (``init(directory:readOnly:refreshInterval:durability:lockTimeout:maximumItemsPerRequest:checkpointAfterEvents:compaction:logger:)``).
    public let isReadOnly: Bool

    /// How many group syncs the log has run since the database was opened: concurrent commits
    /// share them, so under load this grows slower than the number of commits.
    public var syncCount: Int { log.syncCount }

    /// How often a read-only database looks, by default, whether the store's writer has made new
    /// commits durable: a tenth of a second — below what a person notices as the lag of a list
    /// behind another app's change, and a look costs a few microseconds (a 1 KiB read per zone).
    public static let defaultRefreshInterval: Duration = .milliseconds(100)

    /// How long an open for writing waits, by default, for another writer to close the store:
    /// five seconds, as SQLite users set a busy timeout.
    public static let defaultLockTimeout: Duration = .seconds(5)

    /// The most items one `modifyRecords` call may hold.
    public let maximumItemsPerRequest: Int
    /// How many events must have been appended since the checkpoint on disk for `close()` to
    /// write a new one.
    public let checkpointAfterEvents: Int64

    /// Opens the store at `directory`, creating it when missing, and rebuilds the current state
    /// by replaying the log.
    ///
    /// - Parameters:
    ///   - readOnly: open beside the store's writer — another process, or none — without taking
    ///     its lock and without writing anything: the database serves what the writer has made
    ///     durable (whole commits, never part of one), catches up before each read and on
    ///     ``refresh()``, and refuses changes with `LogError.readOnly`. Any number of read-only
    ///     databases may be open beside the one writer. The store must exist.
    ///   - refreshInterval: how often a read-only database looks for the writer's new commits
    ///     and, when there are some, refreshes itself, so that its views and subscriptions move
    ///     without a read (``defaultRefreshInterval``); nil: only reads and ``refresh()`` catch
    ///     up. Ignored when writing.
    ///   - lockTimeout: how long to wait for another writer (another process, or another
    ///     `Database` on this directory) to close the store before failing with `LogError.locked`:
    ///     a few seconds, as apps set SQLite's busy timeout, because writers that each open,
    ///     commit and close (a command-line tool run by a script, several at once) hold the lock
    ///     for milliseconds and should take turns, not fail. `.zero` fails at once.
    ///   - maximumItemsPerRequest: CloudKit's 400 by default; an embedded store may allow larger
    ///     atomic commits (bulk imports), up to the log's batch size limit.
    ///   - checkpointAfterEvents: `close()` writes a new checkpoint (the key index and the views'
    ///     snapshots, which for a million notes is some 400 MB) only once this many events have
    ///     been appended since the one on disk; until then the next open replays those events
    ///     after the older checkpoint, which for 10,000 events takes milliseconds. 0 writes one
    ///     at every close that follows a change. `checkpoint()` always writes.
    ///   - compaction: when zones' logs are compacted and how long deletes are kept: in the
    ///     background once half a zone's sealed log was written since its last compaction, and
    ///     deletes for 24 hours, by default (``CompactionPolicy``).
    ///
    /// - Throws: `LogError` when the log cannot be opened (`.locked` when another writer still
    ///   has it after `lockTimeout`; corrupt — see `Log.repair`), `RecordStoreError(.internalError)`
    ///   when an event in it cannot be decoded.
    public convenience init(
        directory: String, readOnly: Bool = false, refreshInterval: Duration? = Database.defaultRefreshInterval,
        durability: LogOptions.Durability = .fsync, lockTimeout: Duration = Database.defaultLockTimeout,
        maximumItemsPerRequest: Int = Database.defaultMaximumItemsPerRequest, checkpointAfterEvents: Int64 = 10_000,
        compaction: CompactionPolicy = CompactionPolicy(), logger: Logger = Logger(label: "RecordStore")
    ) async throws {
        var options = LogOptions(readOnly: readOnly, durability: durability)
        options.compression = .lz4
        try await self.init(
            directory: directory, options: options, lockTimeout: lockTimeout,
            maximumItemsPerRequest: maximumItemsPerRequest, checkpointAfterEvents: checkpointAfterEvents, compaction: compaction,
            refreshInterval: refreshInterval, logger: logger)
    }

    /// Opens or creates the database in `directory` with the log's own options (segment size,
    /// preallocation, read-only): for the reliability harness, which rolls segments often.
    package convenience init(
        directory: String, options: LogOptions, lockTimeout: Duration = Database.defaultLockTimeout,
        maximumItemsPerRequest: Int = Database.defaultMaximumItemsPerRequest,
        checkpointAfterEvents: Int64 = 10_000, compaction: CompactionPolicy = CompactionPolicy(),
        refreshInterval: Duration? = Database.defaultRefreshInterval, logger: Logger = Logger(label: "RecordStore")
    ) async throws {
        // The checkpoint is read beside the log's open (validating each zone's active segment).
        let checkpoint = CheckpointPrefetch.start(
            path: Self.checkpointPath(directory: directory), fromBytes: CommitTuning.current.twoThreadOpenBytes)
        let log = try await Log.open(directory: directory, options: options, lockTimeout: lockTimeout, logger: logger)
        try await self.init(
            directory: directory, log: log,
            maximumItemsPerRequest: maximumItemsPerRequest, checkpointAfterEvents: checkpointAfterEvents,
            // A reader beside a writer never compacts: the writer's log is not its to change.
            compaction: options.readOnly ? .manual : compaction, refreshInterval: refreshInterval, logger: logger,
            checkpoint: checkpoint)
    }

    /// A new, empty database that lives in memory only: no directory, no file, nothing left when
    /// it is released. It behaves as a database on disk does in every other way (the same
    /// events, offsets, change tags, change tokens, errors, views and subscriptions), so an
    /// app's unit tests can run against it without touching the disk.
    ///
    /// ```swift
    /// @Test func savingANoteShowsItInTheList() async throws {
    ///     let database = try await Database.inMemory()
    ///     let notes = try await NotesModel(database: database)
    ///     try await notes.add("Buy milk")
    ///     #expect(try await notes.titles() == ["Buy milk"])
    /// }
    /// ```
    ///
    /// ``checkpoint()`` and ``close()`` succeed and write nothing; views are built from the
    /// events in memory; ``directory`` is nil and ``syncCount`` stays 0.
    ///
    /// - Parameters:
    ///   - maximumItemsPerRequest: as for ``init(directory:readOnly:refreshInterval:durability:lockTimeout:maximumItemsPerRequest:checkpointAfterEvents:compaction:logger:)``.
    public static func inMemory(
        maximumItemsPerRequest: Int = Database.defaultMaximumItemsPerRequest, logger: Logger = Logger(label: "RecordStore")
    ) async throws -> Database {
        // The batches are encoded as on disk (LZ4); durability has no meaning in memory.
        return try await Database(
            directory: nil, log: MemoryLog(options: LogOptions()), maximumItemsPerRequest: maximumItemsPerRequest, checkpointAfterEvents: 0,
            compaction: .manual, logger: logger)
    }

    /// Opens a database over a cluster's shared log (RecordPostgres), whose mirror's files are
    /// under `directory`. The log's owner catches it up (``refresh()``) before every request
    /// that must not regress; the database itself does every `refreshInterval`, so that its
    /// subscriptions hear the other writers' commits. Of `compaction`, only the re-batching of
    /// small commits runs here, in the background, through the shared log's partitions (a
    /// PostgreSQL zone re-batches its newest rows); the rest is its owner's.
    package convenience init(
        directory: String, sharedLog log: any PartitionedLog, maximumItemsPerRequest: Int = Database.defaultMaximumItemsPerRequest,
        checkpointAfterEvents: Int64 = 10_000, compaction: CompactionPolicy = .manual, refreshInterval: Duration?, logger: Logger
    ) async throws {
        try await self.init(
            directory: directory, log: log, maximumItemsPerRequest: maximumItemsPerRequest, checkpointAfterEvents: checkpointAfterEvents,
            compaction: compaction, refreshInterval: refreshInterval, logger: logger)
    }

    /// Opens a database over `log`, whose files (if any) are under `directory`. Internal, not
    /// private: tests open one over a log with small segments.
    init(
        directory: String?, log: any PartitionedLog, maximumItemsPerRequest: Int, checkpointAfterEvents: Int64,
        compaction: CompactionPolicy, refreshInterval: Duration? = nil, logger: Logger, checkpoint: CheckpointPrefetch? = nil
    ) async throws {
        self.directory = directory
        compactor = ZoneCompactor(policy: compaction, logger: logger)
        self.maximumItemsPerRequest = max(1, maximumItemsPerRequest)
        self.checkpointAfterEvents = max(0, checkpointAfterEvents)
        self.logger = logger
        tuning = CommitTuning.current
        self.log = log
        isReadOnly = log.options.readOnly
        watcher = isReadOnly || log.isShared ? refreshInterval.map { StoreWatcher(interval: $0, logger: logger) } : nil
        system = isReadOnly ? try log.partition(named: StoredEvent.systemPartition) : try log.createPartition(named: StoredEvent.systemPartition)
        storeID = try await Self.storeIdentity(system, readOnly: isReadOnly)
        state = LockedValue(State())
        let report = try await loadZones(checkpoint: checkpoint)
        state.withLock { $0.openReport = report }
        try loadSubscriptions()
        watcher?.start(self)
    }

    /// A new database in a fresh temporary directory, for tests: no server, no cleanup needed
    /// beyond `removeTemporaryDirectory()` (or the system's temporary-file sweep).
    public static func temporary(durability: LogOptions.Durability = .noSyncUnsafe) async throws -> Database {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("RecordStore-\(UUID().uuidString)").path
        return try await Database(directory: path, durability: durability)
    }

    /// Closes the log (syncs, writes index files and checkpoints, releases the lock; in memory,
    /// only refuses later calls).
    public func close() throws {
        guard !closed.load(ordering: .acquiring) else { return }
        // The checkpoint only saves time on the next open: the log is closed whatever happens to
        // it, and its failure is reported after.
        var checkpointFailure: (any Error)?
        do { if !isReadOnly { try checkpoint(unlessTailBelow: checkpointAfterEvents) } } catch {
            logger.warning("could not write the checkpoint; the next open replays the log", metadata: ["error": "\(error)"])
            checkpointFailure = error
        }
        closed.store(true, ordering: .releasing)
        watcher?.stop()
        subscriptions.finishAll()
        try log.close()
        if let checkpointFailure { throw checkpointFailure }
    }

    /// Closes the database without writing a checkpoint: for a database whose state may hold a
    /// commit its shared log refused (`LogError.fenced`), which must be opened again from the log
    /// rather than saved. Later calls fail as after ``close()``.
    package func abandon() throws {
        guard !closed.load(ordering: .acquiring) else { return }
        closed.store(true, ordering: .releasing)
        watcher?.stop()
        subscriptions.finishAll()
        try log.close()
    }

    /// Closes the database and deletes its directory (an in-memory database has none).
    public func removeTemporaryDirectory() throws {
        try close()
        if let directory { try FileManager.default.removeItem(atPath: directory) }
    }

    /// Reads the store's identity event, writing it first in a new store.
    private static func storeIdentity(_ system: any LogPartition, readOnly: Bool) async throws -> [UInt8] {
        if system.endOffset > 0, let first = try system.records(from: 0, to: nil, limit: 1).first,
            StoredEvent.kind(of: first) == .storeIdentity, let value = first.value, value.count == 16
        {
            return Array(value)
        }
        guard !readOnly else {
            throw RecordStoreError(
                .internalError, "The store is being created by its writer and has no durable identity yet; open it again.")
        }
        guard system.endOffset == 0 else {
            throw RecordStoreError(.internalError, "the store's system log does not start with its identity")
        }
        var identity = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in identity.indices { identity[index] = generator.next() }
        var batch = RecordBatchBuilder()
        batch.append(key: "store", value: identity, headers: StoredEvent.headers(.storeIdentity))
        _ = try await system.append(batch)
        return identity
    }

    /// The log partition name of a zone.
    static func partitionName(_ zoneID: ZoneID) throws(RecordStoreError) -> String {
        guard zoneID.ownerName == RecordLimits.defaultOwnerName else {
            throw RecordStoreError(
                .invalidArguments,
                "Zone \(zoneID) has owner \"\(zoneID.ownerName)\"; this store holds only the default owner's zones (\(RecordLimits.defaultOwnerName)).",
                zoneID: zoneID)
        }
        return zoneID.zoneName
    }

    /// Whether `close()` has run.
    var isClosed: Bool { closed.load(ordering: .acquiring) }

    func checkOpen() throws(RecordStoreError) {
        if closed.load(ordering: .acquiring) { throw RecordStoreError(.internalError, "The database is closed; open it again.") }
    }
}
