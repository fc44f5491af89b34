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
/// asked for, so no node starves. A write that waits ``lockWait`` for a turn in vain (PostgreSQL
/// failing over, a connection that does not come) goes on without one — the fence keeps it
/// correct — and so do the writes after it until a turn comes; a node that dies loses its
/// connection, and the lock with it.
package final class PostgresWriteLease: Sendable {
    private enum Phase {
        case idle
        case acquiring
        case held(since: ContinuousClock.Instant)
        case releasing
    }

    private struct State {
        var phase = Phase.idle
        /// Counts the turns this node has had.
        var turn = 0
        /// Writes running in the current turn.
        var active = 0
        /// Writes waiting for the next turn: each is resumed with true when admitted to it, with
        /// false when it waited ``lockWait`` in vain and goes on without the lease.
        var waiters: [(id: Int, continuation: CheckedContinuation<Bool, any Error>)] = []
        var nextWaiter = 0
        /// When the turn being acquired was asked for.
        var acquiringSince: ContinuousClock.Instant?
        /// The turn's holder, waiting for its last write to finish.
        var release: CheckedContinuation<Void, Never>?
    }

    /// How long a turn admits new writes while other work may be waiting: 20 ms.
    package static let maximumTurn: Duration = .milliseconds(20)
    /// How long a node waits for the lock before failing the writes waiting: 5 s.
    package static let lockTimeout = "5s"
    /// How long a write waits for a turn before it goes on without one, fenced as every write
    /// is: 2 s. A turn that cannot be had (PostgreSQL failing over, a connection that does not
    /// come) must not stop writes the fence alone keeps correct.
    package static let lockWait: Duration = .seconds(2)

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
        guard let turn = try await enter() else {
            logger.debug("writing without a turn: none could be had in time")
            return try await body()
        }
        defer { leave() }
        return try await Self.$currentTurn.withValue(turn) { try await body() }
    }

    /// The number of the turn the calling task writes in, set by ``during(_:)``: nil outside one.
    @TaskLocal package static var currentTurn: Int?

    /// Waits for a turn and returns its number; nil when none came within ``lockWait``.
    private func enter() async throws -> Int? {
        let leased = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
            let now = ContinuousClock.now
            let (admitted, waiter) = state.withLock { state -> (Bool?, Int?) in
                switch state.phase {
                case .held(let since) where now - since < Self.maximumTurn:
                    state.active += 1
                    return (true, nil)
                case .acquiring where state.acquiringSince.map { now - $0 > Self.lockWait } == true:
                    // The turn asked for has not come for a while: do not queue behind it.
                    return (false, nil)
                case .idle:
                    state.phase = .acquiring
                    state.acquiringSince = now
                    Task { await self.turns() }
                default:
                    break
                }
                state.nextWaiter += 1
                state.waiters.append((state.nextWaiter, continuation))
                return (nil, state.nextWaiter)
            }
            if let admitted { continuation.resume(returning: admitted) }
            if let waiter {
                Task {
                    try? await Task.sleep(for: Self.lockWait)
                    self.giveUp(waiter)
                }
            }
        }
        return leased ? state.withLock { $0.turn } : nil
    }

    /// Lets a write that still waits for a turn go on without one.
    private func giveUp(_ waiter: Int) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, any Error>? in
            guard let index = state.waiters.firstIndex(where: { $0.id == waiter }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        continuation?.resume(returning: false)
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
                for waiter in failed { waiter.continuation.resume(throwing: error) }
            }
        } while state.withLock({ state -> Bool in
            state.phase = state.waiters.isEmpty ? .idle : .acquiring
            state.acquiringSince = state.waiters.isEmpty ? nil : .now
            return !state.waiters.isEmpty
        })
    }

    private func turn(on connection: PostgresConnection) async throws {
        try await connection.query("SET lock_timeout = '\(unescaped: Self.lockTimeout)'", logger: logger)
        try await connection.query("SELECT pg_advisory_lock(\(key))", logger: logger)
        let granted = state.withLock { state in
            state.phase = .held(since: .now)
            state.turn += 1
            state.active += state.waiters.count
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in granted { waiter.continuation.resume(returning: true) }
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
