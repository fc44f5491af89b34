import Foundation

/// A Notes store the benchmark measures ours against: SQLite through GRDB, RocksDB, LMDB. Each is
/// built as a competent developer would build Notes on it — a primary key (zone, name), an index
/// on (folder, modified, name), a change sequence for "changes since", durable commits — and is
/// used from one task at a time, but for `saveSingly`'s own writers.
protocol NotesPeer: AnyObject, Sendable {
    /// The peer's key in the report: "sqlite", "rocksdb", "lmdb".
    static var name: String { get }
    /// Where the peer keeps its files (a file for SQLite, a directory for the others).
    var path: String { get }

    /// Saves `rows` as one durable commit.
    func saveCommit(_ rows: [Dataset.Row]) async throws
    /// Saves each row as its own durable commit, from `writers` concurrent writers.
    func saveSingly(_ rows: [Dataset.Row], writers: Int) async throws
    /// The last change sequence number written (-1 when none).
    func currentSequence() async throws -> Int64
    /// Every note changed after `sequence`, decoded into `Note`s; returns how many.
    func changes(since sequence: Int64) async throws -> Int
    /// A full scan decoding every note into the structs the views hold; returns how many.
    func replay() async throws -> Int
    /// Folder `index`'s notes, sorted by (modified, name), decoded; returns how many.
    func fetchFolder(_ index: Int) async throws -> Int

    /// Runs the engine's own compaction to its end (SQLite `VACUUM`, RocksDB a manual
    /// compaction of every key); false when the engine has none (LMDB). The rewrite workload's.
    func compact() async throws -> Bool
    /// Returns once the engine's own background work — flushes and compactions its writes left
    /// it — is done, or has gone on for `settleLimit`. Called, untimed, before every side's
    /// turn: whichever side's deferred work it is, it runs in no other side's measurement.
    func settle() async throws

    func close() throws
    func reopen() throws
    /// Bytes of the peer's files on disk (after `close`).
    func diskBytes() -> Int
    /// Opens an existing store without writing anything (W6/W9's child process).
    static func openExisting(path: String) throws -> Self
}

/// The longest ``NotesPeer/settle()`` waits for an engine's background work.
let settleLimit = Duration.seconds(120)

/// An error a key-value peer's C library reported, with its message.
struct PeerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body(0..<count)` each on its own thread and returns once all have finished, throwing the
/// first error. The key-value peers' concurrent writers: their C calls block in `fsync`, and on
/// Swift's cooperative pool (one thread per core) two blocked writers would stall the other
/// fourteen, denying RocksDB the group commit its 16 writers would get in a C program.
enum Threads {
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) async throws {
        let failures = Failures()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for index in 0..<count {
                group.enter()
                Thread {
                    do { try body(index) } catch { failures.record(error) }
                    group.leave()
                }.start()
            }
            group.notify(queue: .global()) { continuation.resume() }
        }
        if let error = failures.first { throw error }
    }

    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [any Error] = []
        func record(_ error: any Error) { lock.withLock { errors.append(error) } }
        var first: (any Error)? { lock.withLock { errors.first } }
    }
}
