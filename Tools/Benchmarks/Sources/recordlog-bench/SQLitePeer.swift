import Foundation
import GRDB
import Notes

/// The SQLite side, as a competent developer would build it with GRDB: WAL, synchronous=FULL, a
/// primary key on (zone, name), an index on (folder, modified), a change-sequence column.
/// Used from one task at a time (the benchmark's sequence of workloads).
final class SQLitePeer: NotesPeer, @unchecked Sendable {
    static let name = "sqlite"
    let path: String
    var pool: DatabasePool
    /// The next change sequence number (the app's own counter, as for "changes since").
    private let sequence = SequenceCounter()

    init(path: String) async throws {
        self.path = path
        pool = try Self.open(path)
        try await pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS note (
                      zone TEXT NOT NULL, name TEXT NOT NULL, folder TEXT NOT NULL, content TEXT NOT NULL,
                      title TEXT NOT NULL, created INTEGER NOT NULL, modified INTEGER NOT NULL, seq INTEGER NOT NULL,
                      PRIMARY KEY (zone, name));
                    CREATE INDEX IF NOT EXISTS note_folder_modified ON note(folder, modified);
                    CREATE INDEX IF NOT EXISTS note_seq ON note(seq);
                    """)
        }
    }

    /// Opens the pool with its writer at `synchronous = FULL`: a commit returns once the WAL is
    /// fsync'd, as ours returns once the log is. GRDB's `DatabasePool` sets `synchronous = NORMAL`
    /// when it enables WAL — after `prepareDatabase` runs — so the pragma is set on the writer
    /// after opening, and checked: with NORMAL, SQLite syncs only at checkpoints.
    static func open(_ path: String) throws -> DatabasePool {
        let pool = try DatabasePool(path: path)
        let (synchronous, journal) = try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            return (try Int.fetchOne(db, sql: "PRAGMA synchronous"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        guard synchronous == 2, journal == "wal" else {
            throw DatabaseError(message: "the peer must run with synchronous=FULL in WAL mode, not \(synchronous ?? -1) / \(journal ?? "?")")
        }
        return pool
    }

    private static func insert(_ db: Database, _ row: Dataset.Row, sequence: Int64) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO note (zone, name, folder, content, title, created, modified, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try statement.execute(arguments: ["Notes", row.name, row.folder, row.content, row.title, row.created, now, sequence])
    }

    /// Saves `rows` as one transaction.
    func saveCommit(_ rows: [Dataset.Row]) async throws {
        let first = sequence.take(rows.count)
        try await pool.write { db in
            for (offset, row) in rows.enumerated() { try Self.insert(db, row, sequence: first + Int64(offset)) }
        }
    }

    func saveSingly(_ rows: [Dataset.Row], writers: Int) async throws {
        let pool = self.pool
        let sequence = self.sequence
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for index in stride(from: writer, to: rows.count, by: writers) {
                        let row = rows[index]
                        let number = sequence.take(1)
                        try await pool.write { db in try Self.insert(db, row, sequence: number) }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    func currentSequence() async throws -> Int64 {
        try await pool.read { db in try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), -1) FROM note") ?? -1 }
    }

    private static func note(_ row: Row) -> Note {
        Note(
            id: row[1], folderID: row[2], content: row[3],
            createdAt: Date(timeIntervalSince1970: Double(row[5] as Int64) / 1000),
            modifiedAt: Date(timeIntervalSince1970: Double(row[6] as Int64) / 1000))
    }

    private static let columns = "zone, name, folder, content, title, created, modified, seq"

    func changes(since sequence: Int64) async throws -> Int {
        try await pool.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT \(Self.columns) FROM note WHERE seq > ? ORDER BY seq", arguments: [sequence])
            var notes: [Note] = []
            while let row = try rows.next() { notes.append(Self.note(row)) }
            return notes.count
        }
    }

    /// A full scan decoding every row into the same structs the views hold.
    func replay() async throws -> Int {
        try await pool.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT \(Self.columns) FROM note")
            var byFolder: [String: [String: Note]] = [:]
            while let row = try rows.next() {
                let note = Self.note(row)
                byFolder[note.folderID, default: [:]][note.id] = note
            }
            return byFolder.values.reduce(0) { $0 + $1.count }
        }
    }

    func fetchFolder(_ index: Int) async throws -> Int {
        try await pool.read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(Self.columns) FROM note WHERE folder = ? ORDER BY modified, name", arguments: [Dataset.folderName(index)])
            var notes: [Note] = []
            while let row = try rows.next() { notes.append(Self.note(row)) }
            return notes.count
        }
    }

    /// `VACUUM`: the database rewritten without its free pages. It holds the writer while it
    /// runs: a commit waits for it.
    func compact() async throws -> Bool {
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        return true
    }

    /// Nothing to wait for: SQLite has no thread of its own; its WAL checkpoints run in the
    /// connection that commits, in that side's time.
    func settle() async throws {}

    func close() throws { try pool.close() }

    /// A peer over an open pool (`ProcessCost`'s reader opens its pool read-only).
    init(path: String, pool: DatabasePool) {
        self.path = path
        self.pool = pool
    }

    /// Opens an existing database without writing anything.
    static func openExisting(path: String) throws -> SQLitePeer {
        SQLitePeer(path: path, pool: try open(path))
    }

    func reopen() throws { pool = try Self.open(path) }

    /// The database with its WAL and shared-memory files.
    func diskBytes() -> Int {
        ["", "-wal", "-shm"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0)
        }
    }
}

/// A thread-safe counter.
final class SequenceCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var next: Int64 = 0

    /// Numbers on from `first` (a reopened store's last number + 1).
    func start(at first: Int64) {
        lock.lock()
        defer { lock.unlock() }
        next = first
    }

    func take(_ count: Int) -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        let first = next
        next += Int64(count)
        return first
    }
}
