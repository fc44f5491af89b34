import CRocksDBPeer
import Foundation
import Notes

/// The RocksDB side, through its C API (Debian's librocksdb-dev): the keys of `KVNotes` in one
/// column family, one `WriteBatch` per commit written with `sync = true` through the WAL, LZ4 on
/// every level, a 10-bit bloom filter (each save first reads the note it may replace) and a
/// 64 MiB block cache, background jobs sized to the cores (`IncreaseParallelism`).
final class RocksDBPeer: NotesPeer, @unchecked Sendable {
    static let name = "rocksdb"
    let path: String
    private var database: OpaquePointer
    private let options: OpaquePointer
    private let tableOptions: OpaquePointer
    private let cache: OpaquePointer
    private let writeOptions: OpaquePointer
    private let readOptions: OpaquePointer
    private let sequence = SequenceCounter()

    init(path: String) throws {
        self.path = path
        guard let options = rocksdb_options_create(), let tableOptions = rocksdb_block_based_options_create(),
            let cache = rocksdb_cache_create_lru(64 << 20), let writeOptions = rocksdb_writeoptions_create(),
            let readOptions = rocksdb_readoptions_create()
        else { throw PeerError("rocksdb: cannot create its options") }
        rocksdb_options_set_create_if_missing(options, 1)
        rocksdb_options_increase_parallelism(options, Int32(ProcessInfo.processInfo.activeProcessorCount))
        rocksdb_options_set_compression(options, Int32(rocksdb_lz4_compression))
        rocksdb_block_based_options_set_filter_policy(tableOptions, rocksdb_filterpolicy_create_bloom(10))
        rocksdb_block_based_options_set_block_cache(tableOptions, cache)
        rocksdb_options_set_block_based_table_factory(options, tableOptions)
        rocksdb_writeoptions_set_sync(writeOptions, 1)
        (self.options, self.tableOptions, self.cache, self.writeOptions, self.readOptions) = (options, tableOptions, cache, writeOptions, readOptions)
        database = try Self.open(path, options)
        sequence.start(at: try lastSequence() + 1)
    }

    private static func open(_ path: String, _ options: OpaquePointer) throws -> OpaquePointer {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard let database = try check({ rocksdb_open(options, path, $0) }) else { throw PeerError("rocksdb: cannot open \(path)") }
        return database
    }

    /// Runs a call that reports failure through `char** errptr`, throwing its message.
    private static func check<T>(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T) throws -> T {
        var error: UnsafeMutablePointer<CChar>?
        let result = call(&error)
        if let error {
            let message = String(cString: error)
            rocksdb_free(error)
            throw PeerError("rocksdb: " + message)
        }
        return result
    }

    /// Adds `rows` to `batch`: each note, its index key and its change key, after deleting the
    /// keys of the note it replaces.
    private func add(_ rows: some Collection<Dataset.Row>, firstSequence: Int64, to batch: OpaquePointer) throws {
        let now = KVNotes.now()
        for (offset, row) in rows.enumerated() {
            let entries = KVNotes.entries(row, sequence: firstSequence + Int64(offset), modified: now)
            if let old = try get(entries.noteKey, { KVNotes.secondaryKeys(ofStored: $0, name: row.name) }) ?? nil {
                chars(old.folderKey) { rocksdb_writebatch_delete(batch, $0, $1) }
                chars(old.changeKey) { rocksdb_writebatch_delete(batch, $0, $1) }
            }
            chars(entries.noteKey) { key, keyCount in chars(entries.note) { rocksdb_writebatch_put(batch, key, keyCount, $0, $1) } }
            chars(entries.folderKey) { rocksdb_writebatch_put(batch, $0, $1, nil, 0) }
            chars(entries.changeKey) { key, keyCount in chars(entries.noteKey) { rocksdb_writebatch_put(batch, key, keyCount, $0, $1) } }
        }
    }

    private func commit(_ rows: some Collection<Dataset.Row>) throws {
        guard let batch = rocksdb_writebatch_create() else { throw PeerError("rocksdb: cannot create a write batch") }
        defer { rocksdb_writebatch_destroy(batch) }
        try add(rows, firstSequence: sequence.take(rows.count), to: batch)
        try Self.check { rocksdb_write(database, writeOptions, batch, $0) }
    }

    func saveCommit(_ rows: [Dataset.Row]) async throws { try commit(rows) }

    func saveSingly(_ rows: [Dataset.Row], writers: Int) async throws {
        try await Threads.run(writers) { writer in
            for index in stride(from: writer, to: rows.count, by: writers) { try self.commit(rows[index...index]) }
        }
    }

    /// `read` applied to the value stored under `key` (pinned, not copied), nil when absent.
    private func get<T>(_ key: [UInt8], _ read: (UnsafeRawBufferPointer) -> T) throws -> T? {
        guard let slice = try Self.check({ error in chars(key) { rocksdb_get_pinned(database, readOptions, $0, $1, error) } }) else { return nil }
        defer { rocksdb_pinnableslice_destroy(slice) }
        var count = 0
        let value = rocksdb_pinnableslice_value(slice, &count)
        return read(UnsafeRawBufferPointer(start: value, count: count))
    }

    /// Calls `visit` with each key and value from `start` on, while it returns true.
    private func scan(from start: [UInt8], _ visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        guard let iterator = rocksdb_create_iterator(database, readOptions) else { throw PeerError("rocksdb: cannot create an iterator") }
        defer { rocksdb_iter_destroy(iterator) }
        chars(start) { rocksdb_iter_seek(iterator, $0, $1) }
        while rocksdb_iter_valid(iterator) != 0 {
            var keyCount = 0, valueCount = 0
            let key = UnsafeRawBufferPointer(start: rocksdb_iter_key(iterator, &keyCount), count: keyCount)
            let value = UnsafeRawBufferPointer(start: rocksdb_iter_value(iterator, &valueCount), count: valueCount)
            guard try visit(key, value) else { break }
            rocksdb_iter_next(iterator)
        }
        try Self.check { rocksdb_iter_get_error(iterator, $0) }
    }

    private func lastSequence() throws -> Int64 {
        guard let iterator = rocksdb_create_iterator(database, readOptions) else { throw PeerError("rocksdb: cannot create an iterator") }
        defer { rocksdb_iter_destroy(iterator) }
        rocksdb_iter_seek_to_last(iterator)
        guard rocksdb_iter_valid(iterator) != 0 else { return -1 }
        var count = 0
        return KVNotes.sequence(inChangeKey: UnsafeRawBufferPointer(start: rocksdb_iter_key(iterator, &count), count: count)) ?? -1
    }

    func currentSequence() async throws -> Int64 { try lastSequence() }

    func changes(since sequence: Int64) async throws -> Int {
        var notes: [Note] = []
        try scan(from: KVNotes.changeKey(sequence + 1)) { key, primaryKey in
            guard KVNotes.sequence(inChangeKey: key) != nil else { return false }
            let name = UnsafeRawBufferPointer(rebasing: primaryKey[KVNotes.noteKeyPrefix.count...])
            if let note = try get(Array(primaryKey), { KVNotes.note(name: name, value: $0) }) ?? nil { notes.append(note) }
            return true
        }
        return notes.count
    }

    func replay() async throws -> Int {
        var byFolder: [String: [String: Note]] = [:]
        let prefix = KVNotes.noteKeyPrefix
        try scan(from: prefix) { key, value in
            guard KVNotes.hasPrefix(key, prefix) else { return false }
            if let note = KVNotes.note(name: UnsafeRawBufferPointer(rebasing: key[prefix.count...]), value: value) {
                byFolder[note.folderID, default: [:]][note.id] = note
            }
            return true
        }
        return byFolder.values.reduce(0) { $0 + $1.count }
    }

    func fetchFolder(_ index: Int) async throws -> Int {
        let prefix = KVNotes.folderKeyPrefix(Dataset.folderName(index))
        var notes: [Note] = []
        try scan(from: prefix) { key, _ in
            guard KVNotes.hasPrefix(key, prefix) else { return false }
            let name = KVNotes.name(inFolderKey: key, prefixCount: prefix.count)
            if let note = try get(KVNotes.noteKeyPrefix + name, { KVNotes.note(name: name, value: $0) }) ?? nil { notes.append(note) }
            return true
        }
        return notes.count
    }

    /// `rocksdb_compact_range` over every key, on a thread of its own (it blocks until done);
    /// writes and reads go on meanwhile.
    func compact() async throws -> Bool {
        try await Threads.run(1) { _ in rocksdb_compact_range(self.database, nil, 0, nil, 0) }
        return true
    }

    /// Polls RocksDB's properties until no flush or compaction is running or pending: its
    /// background threads compact what a workload wrote for seconds after it (1.5 s of one
    /// core inside our W5 replay's 1.7 s, in one profiled run).
    func settle() async throws {
        let busy = ["rocksdb.num-running-flushes", "rocksdb.num-running-compactions", "rocksdb.mem-table-flush-pending", "rocksdb.compaction-pending"]
        let clock = ContinuousClock()
        let deadline = clock.now + settleLimit
        while busy.contains(where: { property($0) != 0 }) {
            guard clock.now < deadline else {
                Bench.log("rocksdb: background work still running after \(settleLimit); going on")
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// An integer property of the database (`rocksdb_property_value`); 0 when it has none.
    private func property(_ name: String) -> Int {
        guard let value = rocksdb_property_value(database, name) else { return 0 }
        defer { rocksdb_free(value) }
        return Int(String(cString: value)) ?? 0
    }

    func close() throws { rocksdb_close(database) }

    func reopen() throws {
        database = try Self.open(path, options)
        sequence.start(at: try lastSequence() + 1)
    }

    func diskBytes() -> Int { Measure.diskBytes(path) }

    static func openExisting(path: String) throws -> RocksDBPeer { try RocksDBPeer(path: path) }

    deinit {
        rocksdb_readoptions_destroy(readOptions)
        rocksdb_writeoptions_destroy(writeOptions)
        rocksdb_options_destroy(options)
        rocksdb_block_based_options_destroy(tableOptions)
        rocksdb_cache_destroy(cache)
    }
}

/// `bytes` as the `const char*` and length the C APIs take.
@inline(__always)
private func chars<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>?, Int) throws -> R) rethrows -> R {
    try bytes.withUnsafeBufferPointer { buffer in
        try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress, $0.count) }
    }
}
