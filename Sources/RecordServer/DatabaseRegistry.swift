import Foundation
import Logging
import RecordLog
import RecordStore
import RecordWire
import StorageKit

/// The databases a server has open: each opened on its first request (one store directory per
/// database, this process its writer), kept open until the server stops, then closed cleanly
/// (synced, checkpointed, unlocked). It also counts each database's requests in flight, to
/// answer `THROTTLED` beyond the configured limit.
final class DatabaseRegistry: Sendable {
    private struct Entry {
        var opening: Task<Database, any Error>
        var syncsReported = 0
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Requests in flight, by database.
        var inFlight: [String: Int] = [:]
        var closed = false
    }

    private let root: DatabaseRoot
    private let configuration: RecordServerConfiguration
    private let metrics: ServerMetrics
    private let logger: Logger
    private let state = LockedValue(State())

    init(root: DatabaseRoot, configuration: RecordServerConfiguration, metrics: ServerMetrics, logger: Logger) {
        self.root = root
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
    }

    /// The open database `name`, opening it first if needed (requests arriving meanwhile wait
    /// for the same open).
    ///
    /// - Throws: `TRY_AGAIN_LATER` when another process holds the store (an administration
    ///   tool) or the server is stopping; the store's error when it cannot be opened.
    func database(named name: String) async throws -> Database {
        let opening: Task<Database, any Error> = try state.withLock { state in
            guard !state.closed else { throw APIError(.tryAgainLater, "The server is stopping.", retryAfter: 1) }
            if let entry = state.entries[name] { return entry.opening }
            let directory = root.storeDirectory(of: name)
            let durability = configuration.durability
            let logger = self.logger
            let task = Task {
                try await Database(directory: directory, durability: durability, lockTimeout: .seconds(1), logger: logger)
            }
            state.entries[name] = Entry(opening: task)
            return task
        }
        do {
            return try await opening.value
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
            guard let database = try? await opening.value else { continue }
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
            guard let database = try? await opening.value else { continue }
            do {
                try database.close()
                logger.info("closed database", metadata: ["database": "\(name)"])
            } catch {
                logger.error("closing database failed", metadata: ["database": "\(name)", "error": "\(error)"])
            }
        }
    }
}
