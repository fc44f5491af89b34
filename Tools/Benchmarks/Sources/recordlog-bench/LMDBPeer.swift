import CLMDBPeer
import Foundation
import Notes

/// The LMDB side, through its C API (Debian's liblmdb-dev): the keys of `KVNotes` in the
/// environment's main database, one write transaction per commit with LMDB's default durable
/// `mdb_txn_commit` (fsync of the data file before the meta page), a 16 GiB map (address space,
/// not disk). LMDB compresses nothing. Its writers take turns on the environment's write lock;
/// `MDB_NOTLS` lets a read transaction live on any thread.
final class LMDBPeer: NotesPeer, @unchecked Sendable {
    static let name = "lmdb"
    let path: String
    private var environment: OpaquePointer
    private var database: MDB_dbi = 0
    private let sequence = SequenceCounter()

    init(path: String) throws {
        self.path = path
        environment = try Self.open(path)
        try attach()
    }

    /// Opens the main database of a newly opened environment and numbers changes on from its last.
    private func attach() throws {
        database = try transaction(readOnly: true) { transaction in
            var database: MDB_dbi = 0
            try Self.check(mdb_dbi_open(transaction, nil, 0, &database))
            return database
        }
        sequence.start(at: try lastSequence() + 1)
    }

    private static func open(_ path: String) throws -> OpaquePointer {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var created: OpaquePointer?
        try check(mdb_env_create(&created))
        guard let environment = created else { throw PeerError("lmdb: cannot create an environment") }
        do {
            try check(mdb_env_set_mapsize(environment, 16 << 30))
            try check(mdb_env_open(environment, path, UInt32(MDB_NOTLS), 0o644))
        } catch {
            mdb_env_close(environment)
            throw error
        }
        return environment
    }

    private static func check(_ code: Int32) throws {
        guard code == 0 else { throw PeerError("lmdb: " + String(cString: mdb_strerror(code))) }
    }

    /// Runs `body` in a transaction, committed (durably, for a write) if it returns, aborted if
    /// it throws.
    private func transaction<T>(readOnly: Bool, _ body: (OpaquePointer) throws -> T) throws -> T {
        var begun: OpaquePointer?
        try Self.check(mdb_txn_begin(environment, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &begun))
        guard let transaction = begun else { throw PeerError("lmdb: no transaction") }
        let result: T
        do {
            result = try body(transaction)
        } catch {
            mdb_txn_abort(transaction)
            throw error
        }
        try Self.check(mdb_txn_commit(transaction))
        return result
    }

    /// `read` applied to the value stored under `key` (in the map, not copied), nil when absent.
    private func get<T>(_ transaction: OpaquePointer, _ key: [UInt8], _ read: (UnsafeRawBufferPointer) -> T) throws -> T? {
        try key.withUnsafeBytes { keyBytes in
            var keyValue = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            var value = MDB_val()
            let code = mdb_get(transaction, database, &keyValue, &value)
            if code == MDB_NOTFOUND { return nil }
            try Self.check(code)
            return read(UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
        }
    }

    private func put(_ transaction: OpaquePointer, _ key: [UInt8], _ value: [UInt8]) throws {
        try key.withUnsafeBytes { keyBytes in
            try value.withUnsafeBytes { valueBytes in
                var keyValue = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
                var data = MDB_val(mv_size: valueBytes.count, mv_data: UnsafeMutableRawPointer(mutating: valueBytes.baseAddress))
                try Self.check(mdb_put(transaction, database, &keyValue, &data, 0))
            }
        }
    }

    private func delete(_ transaction: OpaquePointer, _ key: [UInt8]) throws {
        try key.withUnsafeBytes { keyBytes in
            var keyValue = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            let code = mdb_del(transaction, database, &keyValue, nil)
            if code != MDB_NOTFOUND { try Self.check(code) }
        }
    }

    /// Saves `rows` in one write transaction: each note, its index key and its change key, after
    /// deleting the keys of the note it replaces.
    private func commit(_ rows: some Collection<Dataset.Row>) throws {
        try transaction(readOnly: false) { transaction in
            // Numbered inside the write lock, so the change keys grow in commit order.
            let first = sequence.take(rows.count)
            let now = KVNotes.now()
            for (offset, row) in rows.enumerated() {
                let entries = KVNotes.entries(row, sequence: first + Int64(offset), modified: now)
                if let old = try get(transaction, entries.noteKey, { KVNotes.secondaryKeys(ofStored: $0, name: row.name) }) ?? nil {
                    try delete(transaction, old.folderKey)
                    try delete(transaction, old.changeKey)
                }
                try put(transaction, entries.noteKey, entries.note)
                try put(transaction, entries.folderKey, [])
                try put(transaction, entries.changeKey, entries.noteKey)
            }
        }
    }

    func saveCommit(_ rows: [Dataset.Row]) async throws { try commit(rows) }

    func saveSingly(_ rows: [Dataset.Row], writers: Int) async throws {
        try await Threads.run(writers) { writer in
            for index in stride(from: writer, to: rows.count, by: writers) { try self.commit(rows[index...index]) }
        }
    }

    /// Calls `visit` with each key and value from `start` on (or from the last key when `start`
    /// is nil, visiting that one only), while it returns true.
    private func scan(
        _ transaction: OpaquePointer, from start: [UInt8]?, _ visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        var opened: OpaquePointer?
        try Self.check(mdb_cursor_open(transaction, database, &opened))
        guard let cursor = opened else { throw PeerError("lmdb: no cursor") }
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val(), value = MDB_val()
        var code: Int32
        if let start {
            code = start.withUnsafeBytes { startBytes in
                key = MDB_val(mv_size: startBytes.count, mv_data: UnsafeMutableRawPointer(mutating: startBytes.baseAddress))
                return mdb_cursor_get(cursor, &key, &value, MDB_SET_RANGE)
            }
        } else {
            code = mdb_cursor_get(cursor, &key, &value, MDB_LAST)
        }
        while code == 0 {
            guard try visit(UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size), UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)),
                start != nil
            else { return }
            code = mdb_cursor_get(cursor, &key, &value, MDB_NEXT)
        }
        if code != MDB_NOTFOUND { try Self.check(code) }
    }

    private func lastSequence() throws -> Int64 {
        try transaction(readOnly: true) { transaction in
            var last: Int64 = -1
            try scan(transaction, from: nil) { key, _ in
                last = KVNotes.sequence(inChangeKey: key) ?? -1
                return false
            }
            return last
        }
    }

    func currentSequence() async throws -> Int64 { try lastSequence() }

    func changes(since sequence: Int64) async throws -> Int {
        try transaction(readOnly: true) { transaction in
            var notes: [Note] = []
            try scan(transaction, from: KVNotes.changeKey(sequence + 1)) { key, primaryKey in
                guard KVNotes.sequence(inChangeKey: key) != nil else { return false }
                let name = UnsafeRawBufferPointer(rebasing: primaryKey[KVNotes.noteKeyPrefix.count...])
                if let note = try get(transaction, Array(primaryKey), { KVNotes.note(name: name, value: $0) }) ?? nil { notes.append(note) }
                return true
            }
            return notes.count
        }
    }

    func replay() async throws -> Int {
        try transaction(readOnly: true) { transaction in
            var byFolder: [String: [String: Note]] = [:]
            let prefix = KVNotes.noteKeyPrefix
            try scan(transaction, from: prefix) { key, value in
                guard KVNotes.hasPrefix(key, prefix) else { return false }
                if let note = KVNotes.note(name: UnsafeRawBufferPointer(rebasing: key[prefix.count...]), value: value) {
                    byFolder[note.folderID, default: [:]][note.id] = note
                }
                return true
            }
            return byFolder.values.reduce(0) { $0 + $1.count }
        }
    }

    func fetchFolder(_ index: Int) async throws -> Int {
        try transaction(readOnly: true) { transaction in
            let prefix = KVNotes.folderKeyPrefix(Dataset.folderName(index))
            var notes: [Note] = []
            try scan(transaction, from: prefix) { key, _ in
                guard KVNotes.hasPrefix(key, prefix) else { return false }
                let name = KVNotes.name(inFolderKey: key, prefixCount: prefix.count)
                if let note = try get(transaction, KVNotes.noteKeyPrefix + name, { KVNotes.note(name: name, value: $0) }) ?? nil { notes.append(note) }
                return true
            }
            return notes.count
        }
    }

    /// LMDB has no compaction: its B-tree reuses the pages a write frees, and the file never
    /// shrinks (a compacting copy, `mdb_env_copy2`, is a backup, not something done in place).
    func compact() async throws -> Bool { false }

    /// Nothing to wait for: LMDB has no thread of its own, and a commit is done when it returns.
    func settle() async throws {}

    func close() throws { mdb_env_close(environment) }

    func reopen() throws {
        environment = try Self.open(path)
        try attach()
    }

    func diskBytes() -> Int { Measure.diskBytes(path) }

    static func openExisting(path: String) throws -> LMDBPeer { try LMDBPeer(path: path) }
}
