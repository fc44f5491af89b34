import Foundation
import Logging
import RecordLog
import RecordPostgres
import RecordStore
import RecordWire
import StorageKit

/// The databases a server has open: each opened on its first request, kept open until the
/// server stops, then closed cleanly (synced, checkpointed, unlocked). It also counts each
/// database's requests in flight, to answer `THROTTLED` beyond the configured limit.
///
/// On files, each database is a store directory of the root, this process its writer. On
/// PostgreSQL (``DatabaseStorage/postgres(_:cache:)``), each is a mirror in the node's cache in
/// front of the shared rows: ``database(named:)`` catches it up with the other nodes before it
/// hands it out, and a database whose mirror a refusal poisoned (another node appended first)
/// is abandoned and opened again (``reopen(_:after:)``), so the request can be planned anew.
final class DatabaseRegistry: Sendable {
    /// An open database, and its mirror when it lives on PostgreSQL.
    struct OpenDatabase: Sendable {
        let database: Database
        let mirror: PostgresMirrorLog?
    }

    private struct Entry {
        var opening: Task<OpenDatabase, any Error>
        var syncsReported = 0
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Each database's write lease on PostgreSQL, made on its first write.
        var leases: [String: PostgresWriteLease] = [:]
        /// The write turn in which each database was last caught up (see ``database(named:)``).
        var caughtUpInTurn: [String: Int] = [:]
        /// Requests in flight, by database.
        var inFlight: [String: Int] = [:]
        var closed = false
    }

    let storage: DatabaseStorage
    private let configuration: RecordServerConfiguration
    private let metrics: ServerMetrics
    private let logger: Logger
    private let state = LockedValue(State())

    init(storage: DatabaseStorage, configuration: RecordServerConfiguration, metrics: ServerMetrics, logger: Logger) {
        self.storage = storage
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
    }

    /// The open database `name`, opening it first if needed (requests arriving meanwhile wait
    /// for the same open); on PostgreSQL, caught up with every commit other nodes made before
    /// this call.
    ///
    /// - Throws: `TRY_AGAIN_LATER` when another process holds the store (an administration
    ///   tool) or the server is stopping; `LogError.sharedLogUnavailable` when PostgreSQL cannot
    ///   be reached; the store's error when it cannot be opened.
    func database(named name: String) async throws -> Database {
        var attempts = 0
        while true {
            attempts += 1
            let opening = try entry(name)
            let open: OpenDatabase
            do {
                open = try await opening.value
            } catch {
                // The next request tries again: the store's lock may be free by then.
                state.withLock { state in
                    if let entry = state.entries[name], entry.opening == opening { state.entries[name] = nil }
                }
                if case LogError.locked = error {
                    throw APIError(
                        .tryAgainLater, "Another process holds the store of database \"\(name)\" (an administration tool?); try again shortly.",
                        retryAfter: 2)
                }
                throw error
            }
            guard let mirror = open.mirror else { return open.database }
            // In a write turn (``duringWriteTurn(_:_:)``) no other node writes: once caught up in
            // it, the database stays level until the turn ends.
            let turn = PostgresWriteLease.currentTurn
            if let turn, mirror.failure == nil, state.withLock({ $0.caughtUpInTurn[name] == turn }) { return open.database }
            do {
                if mirror.failure == nil {
                    try await open.database.refresh()
                    if mirror.failure == nil {
                        if let turn { state.withLock { $0.caughtUpInTurn[name] = turn } }
                        return open.database
                    }
                }
            } catch LogError.closed where attempts < 4 {
                // Abandoned by a request that met a refusal meanwhile: take the reopened one.
                continue
            }
            guard attempts < 4 else { throw LogError.sharedLogUnavailable(reason: "database \"\(name)\" could not be caught up with PostgreSQL") }
            reopen(name, after: open.database)
        }
    }

    /// The entry of `name`, its open started when there is none.
    private func entry(_ name: String) throws -> Task<OpenDatabase, any Error> {
        try state.withLock { state in
            guard !state.closed else { throw APIError(.tryAgainLater, "The server is stopping.", retryAfter: 1) }
            if let entry = state.entries[name] { return entry.opening }
            let task = open(name, after: nil)
            state.entries[name] = Entry(opening: task)
            return task
        }
    }

    /// Opens `name`, once `previous` (a database being replaced) has been abandoned.
    private func open(_ name: String, after previous: Task<OpenDatabase, any Error>?) -> Task<OpenDatabase, any Error> {
        let (storage, durability, logger, interval) = (storage, configuration.durability, logger, configuration.postgresRefreshInterval)
        return Task {
            if let old = try? await previous?.value {
                await old.mirror?.settle()
                try? old.database.abandon()
            }
            switch storage {
            case .files(let root):
                return OpenDatabase(
                    database: try await Database(directory: root.storeDirectory(of: name), durability: durability, lockTimeout: .seconds(1), logger: logger),
                    mirror: nil)
            case .postgres(let cluster, let cache):
                // The small commits a node writes are re-batched in PostgreSQL as on files
                // (FORMAT.md §14.5): one request's commit compresses to nothing alone.
                let (database, mirror) = try await cluster.openDatabase(
                    name, mirror: cache.storeDirectory(of: name), refreshInterval: interval, compaction: CompactionPolicy(), logger: logger)
                return OpenDatabase(database: database, mirror: mirror)
            }
        }
    }

    /// Replaces `database` — whose mirror a refusal poisoned — by the same database opened
    /// again from PostgreSQL, unless another request has already done so.
    func reopen(_ name: String, after database: Database) {
        state.withLock { state in
            guard !state.closed, let entry = state.entries[name] else { return }
            // Only the entry that still holds this database is replaced: another request may
            // have reopened it already.
            let current = entry.opening
            let task = Task { () throws -> OpenDatabase in
                let open = try await current.value
                guard open.database === database else { return open }
                return try await self.open(name, after: current).value
            }
            state.entries[name] = Entry(opening: task)
        }
    }

    /// Runs `body` — a request that may write database `name` — during one of this node's
    /// write turns when the database lives on PostgreSQL (``PostgresWriteLease``): nodes
    /// writing one database take turns instead of racing through the fence.
    func duringWriteTurn<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
        guard case .postgres(let cluster, _) = storage else { return try await body() }
        let lease = state.withLock { state in
            if let lease = state.leases[name] { return lease }
            let lease = cluster.writeLease(of: name)
            state.leases[name] = lease
            return lease
        }
        return try await lease.during(body)
    }

    /// Whether `error` means the request met a database that must be opened again from
    /// PostgreSQL (and may then succeed): its mirror was poisoned, or it was abandoned for that.
    func isRetryable(_ error: any Error, database name: String) async -> Bool {
        guard case .postgres = storage else { return false }
        switch error {
        case LogError.fenced, LogError.closed, LogError.sharedLogUnavailable:
            let current = state.withLock { $0.entries[name]?.opening }
            if let open = try? await current?.value, let mirror = open.mirror, mirror.failure != nil {
                reopen(name, after: open.database)
            }
            return true
        default:
            return false
        }
    }

    /// Takes one of the database's request slots; false when all are taken.
    func enter(_ name: String) -> Bool {
        let entered = state.withLock { state in
            let inFlight = state.inFlight[name, default: 0]
            guard inFlight < configuration.maximumConcurrentRequestsPerDatabase else { return false }
            state.inFlight[name] = inFlight + 1
            return true
        }
        if entered { metrics.requestsInFlight(database: name).increment() }
        return entered
    }

    /// Gives back a slot taken by ``enter(_:)``.
    func leave(_ name: String) {
        state.withLock { state in
            let inFlight = state.inFlight[name, default: 0] - 1
            state.inFlight[name] = inFlight > 0 ? inFlight : nil
        }
        metrics.requestsInFlight(database: name).decrement()
    }

    /// Reports each open database's group fsyncs since the last report to the metrics.
    func reportSyncs() async {
        let open = state.withLock { $0.entries.map { ($0.key, $0.value.opening) } }
        for (name, opening) in open {
            guard let database = try? await opening.value.database else { continue }
            let count = database.syncCount
            let delta = state.withLock { state -> Int in
                let reported = state.entries[name]?.syncsReported ?? 0
                state.entries[name]?.syncsReported = count
                return count - reported
            }
            metrics.recordSyncs(database: name, count: delta)
        }
    }

    /// Closes every open database (after the server's last request): each is synced,
    /// checkpointed and unlocked. Later requests get `TRY_AGAIN_LATER`.
    func closeAll() async {
        let open = state.withLock { state in
            state.closed = true
            return state.entries.map { ($0.key, $0.value.opening) }
        }
        for (name, opening) in open {
            guard let open = try? await opening.value else { continue }
            do {
                await open.mirror?.settle()
                try open.database.close()
                logger.info("closed database", metadata: ["database": "\(name)"])
            } catch {
                logger.error("closing database failed", metadata: ["database": "\(name)", "error": "\(error)"])
            }
        }
    }
}
