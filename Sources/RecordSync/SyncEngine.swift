import Foundation
import Logging
import RecordStore

/// Keeps a local store in step with a remote database, as CloudKit's `CKSyncEngine` keeps an
/// app's data in step with iCloud: it fetches the remote's changes (database changes, then each
/// changed zone page by page from its token) and applies them locally, sends the local changes
/// in batches, and merges conflicts — with all of its state in the local log, committed with the
/// data it describes.
///
/// Local changes need no call: once a zone is synced, **every commit to it records its pending
/// changes in the same commit** (FORMAT.md §10.3), whichever API or process wrote it, so an edit
/// and its outbox entry are durable together. ``sendChanges()`` sends them with a client change
/// token per batch (a retry after a lost answer is applied once) and removes each only when the
/// remote acknowledged it.
///
/// ```swift
/// let device = try await Database(directory: devicePath)
/// let server = try await Database(directory: serverPath)      // or an HTTPRemoteDatabase
/// let engine = SyncEngine(local: device, remote: server, configuration: .init(automaticallySync: false))
/// _ = try await device.save(note)                             // recorded as pending
/// try await engine.sendChanges()                              // now on the server
/// try await engine.fetchChanges()                             // the server's changes, here
/// ```
///
/// With `automaticallySync` (the default) the engine fetches on start and whenever the remote
/// notifies a change, and sends after every local commit, until ``stop()``. Events of either
/// mode arrive on ``events()``. SYNC.md explains the state machine and where it differs from
/// CKSyncEngine.
///
/// Concurrency: an actor; the rounds (fetch, send) run one at a time, in about call order
/// (``exclusively(_:)``), across their suspension points. Every wait is a suspension, never a
/// blocked thread; the automatic mode's loops are tasks that ``stop()`` cancels.
public actor SyncEngine {
    /// How an engine works.
    public struct Configuration: Sendable {
        /// Whether the engine syncs by itself (fetch on start and on remote notifications, send
        /// after local commits) until ``SyncEngine/stop()``; false for explicit
        /// ``SyncEngine/fetchChanges()`` and ``SyncEngine/sendChanges()`` only (deterministic tests).
        public var automaticallySync: Bool
        /// The zones to sync; nil for every zone of both sides.
        public var zones: Set<ZoneID>?
        /// The most records one page of a zone's changes holds (each page is one local commit).
        public var resultsLimit: Int
        /// Decides conflicts; nil for ``RecordMerge/threeWay(_:)``.
        public var conflictResolver: ConflictResolver?
        /// Where the engine logs retries and refused items; never configured by the engine.
        public var logger: Logger

        /// A configuration; every default is the one CKSyncEngine users expect: automatic,
        /// every zone, pages of 200 records, the three-way merge.
        public init(
            automaticallySync: Bool = true, zones: Set<ZoneID>? = nil, resultsLimit: Int = 200,
            conflictResolver: ConflictResolver? = nil, logger: Logger = Logger(label: "RecordSync")
        ) {
            self.automaticallySync = automaticallySync
            self.zones = zones
            self.resultsLimit = max(1, resultsLimit)
            self.conflictResolver = conflictResolver
            self.logger = logger
        }
    }

    /// The device's store.
    public nonisolated let local: Database
    /// The database it syncs with.
    public nonisolated let remote: any RemoteDatabase
    /// How the engine works, as given to ``init(local:remote:configuration:)``.
    public nonisolated let configuration: Configuration
    let broadcaster = SyncEventBroadcaster()
    /// Whether a round (fetch or send) is under way, and the rounds waiting for it.
    private var roundRunning = false
    private var roundWaiters: [CheckedContinuation<Void, Never>] = []
    /// Whether the local zones were adopted (their existing records marked pending) this run.
    var prepared = false
    var automaticTasks: [Task<Void, Never>] = []

    /// An engine between `local` and `remote`; with `automaticallySync`, it starts syncing now.
    public init(local: Database, remote: any RemoteDatabase, configuration: Configuration = Configuration()) {
        self.local = local
        self.remote = remote
        self.configuration = configuration
        if configuration.automaticallySync {
            Task { await self.startAutomaticSync() }
        }
    }

    /// The engine's events from now on, in order; the stream ends when the engine stops.
    public nonisolated func events() -> AsyncStream<SyncEvent> {
        broadcaster.stream()
    }

    /// Stops automatic syncing and ends the event streams. Rounds under way finish first.
    public func stop() async {
        for task in automaticTasks { task.cancel() }
        automaticTasks = []
        try? await exclusively {}
        broadcaster.finish()
    }

    /// The device's identity in sync: its store's identity.
    public nonisolated var deviceIdentity: Data { Data(local.storeIdentity) }

    /// Whether the engine syncs `zoneID`.
    func includes(_ zoneID: ZoneID) -> Bool {
        configuration.zones.map { $0.contains(zoneID) } ?? true
    }

    /// The local zones this engine syncs.
    func localZones() async throws -> [ZoneID] {
        try await local.allZones().filter(includes)
    }

    /// How many local changes wait to be sent, in every synced zone.
    public func pendingChangeCount() async throws -> Int {
        var count = 0
        for zoneID in try await localZones() {
            count += try local.syncRead(in: zoneID) { $0.liveRecordsByType[SyncRecords.pendingType] ?? 0 }
        }
        return count
    }

    func emit(_ event: SyncEvent) {
        broadcaster.post(event)
    }

    /// Runs `body` alone among the engine's rounds, in about the order they were asked for: an
    /// actor lets another call in at every suspension, and a round suspends at every remote
    /// call.
    func exclusively<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        while roundRunning {
            await withCheckedContinuation { roundWaiters.append($0) }
        }
        roundRunning = true
        defer {
            roundRunning = false
            if !roundWaiters.isEmpty { roundWaiters.removeFirst().resume() }
        }
        return try await body()
    }
}
