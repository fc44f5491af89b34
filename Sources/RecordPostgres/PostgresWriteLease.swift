import Logging
import PostgresNIO
import StorageKit

/// A node's turn at writing one database of a cluster: a PostgreSQL advisory lock that the
/// nodes take in turns, so that two nodes writing the same database at once take turns instead
/// of racing each other through the fence.
///
/// The fence alone keeps every write correct — a node whose plan is stale is refused, then
/// opens the database again and replans — but under steady writes through two nodes the
/// slower one loses nearly every race (each refusal costs it a reopen, during which the other
/// writes on). With the lease, a node's writes run during its turn, after it caught up:
///
/// ```swift
/// try await lease.during {
///     try await database.refresh()              // level with what other nodes wrote before
///     try await database.modifyRecords(...)     // planned at the real end: not refused
/// }
/// ```
///
/// Every write of the node in the turn shares it (the commit pipeline still groups them). A
/// turn ends when the node has no write in flight, or once it has lasted ``maximumTurn`` —
/// then writes arriving wait, those in flight finish, and the lock is released and taken
/// again behind the other nodes waiting for it: PostgreSQL grants a lock in the order it was
/// asked for, so no node starves. A lock that cannot be had within ``lockTimeout`` (a node
/// holding it is cut off but not yet dead to PostgreSQL) fails the writes waiting, which the
/// client retries; a node that dies loses its connection, and the lock with it.
package final class PostgresWriteLease: Sendable {
    private enum Phase {
        case idle
        case acquiring
        case held(since: ContinuousClock.Instant)
        case releasing
    }

    private struct State {
        var phase = Phase.idle
        /// Writes running in the current turn.
        var active = 0
        /// Writes waiting for the next turn.
        var waiters: [CheckedContinuation<Void, any Error>] = []
        /// The turn's holder, waiting for its last write to finish.
        var release: CheckedContinuation<Void, Never>?
    }

    /// How long a turn admits new writes while other work may be waiting: 20 ms.
    package static let maximumTurn: Duration = .milliseconds(20)
    /// How long a node waits for the lock before failing the writes waiting: 5 s.
    package static let lockTimeout = "5s"

    private let client: PostgresClient
    private let key: Int64
    private let logger: Logger
    private let state = LockedValue(State())

    /// The lease of `database`: the lock's key is a hash of its name (FORMAT.md §14.5).
    init(client: PostgresClient, database: String, logger: Logger) {
        self.client = client
        key = Self.key(of: database)
        self.logger = logger
    }

    /// The advisory lock key of a database: FNV-1a (64 bits) of `recordlog-write:` and its name.
    static func key(of database: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "recordlog-write:\(database)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    /// Runs `body` during one of this node's turns.
    ///
    /// - Throws: `body`'s error; PostgreSQL's when the lock cannot be taken.
    package func during<T>(_ body: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let admitted = state.withLock { state -> Bool in
                switch state.phase {
                case .held(let since) where ContinuousClock.now - since < Self.maximumTurn:
                    state.active += 1
                    return true
                case .idle:
                    state.phase = .acquiring
                    state.waiters.append(continuation)
                    Task { await self.turns() }
                    return false
                default:
                    state.waiters.append(continuation)
                    return false
                }
            }
            if admitted { continuation.resume() }
        }
    }

    private func leave() {
        let release = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.active -= 1
            guard state.active == 0, case .held = state.phase, let release = state.release else { return nil }
            state.phase = .releasing
            state.release = nil
            return release
        }
        release?.resume()
    }

    /// Turns, one after another while writes are waiting: each takes the lock on a connection
    /// of its own, admits the writes waiting, and releases the lock once the last write of the
    /// turn has finished.
    private func turns() async {
        repeat {
            do {
                try await client.withConnection { connection in try await turn(on: connection) }
            } catch {
                logger.warning("could not take a database's write lease", metadata: ["error": "\(String(reflecting: error))"])
                let failed = state.withLock { state in
                    defer { state.waiters = [] }
                    return state.waiters
                }
                for waiter in failed { waiter.resume(throwing: error) }
            }
        } while state.withLock({ state -> Bool in
            state.phase = state.waiters.isEmpty ? .idle : .acquiring
            return !state.waiters.isEmpty
        })
    }

    private func turn(on connection: PostgresConnection) async throws {
        try await connection.query("SET lock_timeout = '\(unescaped: Self.lockTimeout)'", logger: logger)
        try await connection.query("SELECT pg_advisory_lock(\(key))", logger: logger)
        let granted = state.withLock { state in
            state.phase = .held(since: .now)
            state.active += state.waiters.count
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in granted { waiter.resume() }
        await withCheckedContinuation { (release: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.active > 0 else {
                    state.phase = .releasing
                    return true
                }
                state.release = release
                return false
            }
            if now { release.resume() }
        }
        try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
    }
}
