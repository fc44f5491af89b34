import Foundation
import Notes
import RecordLog
import RecordStore

/// The RecordLog side: a RecordStore database holding Notes-shaped records, read through the
/// Notes facade and its materialized views.
/// Used from one task at a time (the benchmark's sequence of workloads).
final class Ours: @unchecked Sendable {
    static let zone = ZoneID(zoneName: "Notes")
    let path: String
    var database: Database
    /// The Notes facade; nil until `openViews()` when opened with `viewsToo: false`.
    var manager: RecordNotesManager?
    /// When the database compacts its log: the default policy (in the background, once half the
    /// sealed log is dirty) but for the rewrite workload, which compacts when it measures.
    let compaction: CompactionPolicy

    init(path: String, compaction: CompactionPolicy = CompactionPolicy()) async throws {
        self.path = path
        self.compaction = compaction
        database = try await Database(directory: path, maximumItemsPerRequest: 1000, compaction: compaction)
        manager = try await RecordNotesManager(database: database)
        try await saveFolders()
    }

    /// Saves the dataset's folders.
    func saveFolders() async throws {
        var folders: [Record] = []
        for index in 0..<Dataset.folderCount {
            var folder = Record(recordType: "Folder", recordID: RecordID(recordName: Dataset.folderName(index), zoneID: Self.zone))
            folder["name"] = .string(Dataset.folderName(index))
            folders.append(folder)
        }
        _ = try await database.modifyRecords(saving: folders, deleting: [])
    }

    static func record(_ row: Dataset.Row) -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: row.name, zoneID: zone))
        record["content"] = .string(row.content)
        record["title"] = .string(row.title)
        record["folder"] = .reference(Reference(recordID: RecordID(recordName: row.folder, zoneID: zone), action: .deleteSelf))
        return record
    }

    /// Saves `rows` as one commit.
    func saveCommit(_ rows: [Dataset.Row]) async throws {
        _ = try await database.modifyRecords(saving: rows.map(Self.record), deleting: [])
    }

    /// Saves `rows`, notes saved before, as one commit of edits: their keys written onto the
    /// stored notes whatever their change tags (`.changedKeys`, as the Notes facade saves an
    /// edited note).
    func saveEdits(_ rows: [Dataset.Row]) async throws {
        let result = try await database.modifyRecords(saving: rows.map(Self.record), deleting: [], savePolicy: .changedKeys)
        for saved in result.saveResults.values { _ = try saved.get() }
    }

    /// Returns once the Notes views have folded every commit that returned (a read of a view
    /// suspends until then).
    func viewsCaughtUp() async {
        await manager?.notes.read { _ in }
    }

    /// Returns once the Notes views have folded every commit (``NotesPeer/settle()``'s
    /// counterpart on our side). The workloads W1–W7 only create notes, and a zone whose log
    /// only created records is never compacted in the background: the views are our only
    /// background work there.
    func settle() async {
        await viewsCaughtUp()
    }

    /// Saves each row as its own commit, from `writers` concurrent tasks.
    func saveSingly(_ rows: [Dataset.Row], writers: Int) async throws {
        let database = self.database
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for index in stride(from: writer, to: rows.count, by: writers) {
                        _ = try await database.save(Self.record(rows[index]))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// A zone token at the current end of the log (paging through everything once).
    func currentToken() async throws -> ServerChangeToken {
        var token: ServerChangeToken?
        var more = true
        while more {
            let page = try await database.fetchZoneChanges(in: Self.zone, since: token, resultsLimit: 50_000, desiredKeys: [])
            token = page.changeToken
            more = page.moreComing
        }
        guard let token else { throw RecordStoreError(.internalError, "no token") }
        return token
    }

    /// Every change since `token` folded into the app's model, as the peer's rows are: each
    /// changed record read in place (`fetchZoneChanges` with callbacks) into a `Note`; returns
    /// how many changes came back.
    func changes(since token: ServerChangeToken) async throws -> Int {
        var token = token
        var notes: [Note] = []
        var deleted = 0
        var more = true
        while more {
            let end = try await database.fetchZoneChanges(in: Self.zone, since: token, resultsLimit: 10_000, recordChanged: { record in
                // Read in place, as the Notes view folds a save: each string built once, from the
                // log's bytes, with no `FieldValue` or `Reference` between.
                guard let folderID = record.withReferenceNameUTF8("folder", { $0.map { String(decoding: $0, as: UTF8.self) } }) else { return }
                let content = record.withStringUTF8("content") { $0.map { String(decoding: $0, as: UTF8.self) } } ?? ""
                notes.append(Note(
                    id: record.recordID.recordName, folderID: folderID, content: content,
                    createdAt: record.creationDate, modifiedAt: record.modificationDate))
            }, recordDeleted: { _ in deleted += 1 })
            token = end.changeToken
            more = end.moreComing
        }
        return notes.count + deleted
    }

    /// Every change since `token` as `Record`s (`fetchZoneChanges` pages); returns how many
    /// records came back.
    func changedRecords(since token: ServerChangeToken) async throws -> Int {
        var token = token
        var count = 0
        var more = true
        while more {
            let page = try await database.fetchZoneChanges(in: Self.zone, since: token, resultsLimit: 10_000)
            count += page.changedRecords.count + page.deletions.count
            token = page.changeToken
            more = page.moreComing
        }
        return count
    }

    /// Rebuilds the Notes view by replaying the whole log; returns the notes it holds.
    func replay() throws -> Int {
        try database.rebuild(NotesView.self).count
    }

    func fetchFolder(_ index: Int) async throws -> Int {
        let folder = Folder(id: Dataset.folderName(index), name: Dataset.folderName(index))
        guard let manager else { throw RecordStoreError(.internalError, "the Notes views are not open") }
        return try await manager.fetchNotes(in: folder).count
    }

    func close() throws { try database.close() }

    /// Reads, checks and decompresses every batch of the closed store's Notes log, visiting each
    /// record through RecordLog's public reader without decoding its event: the floor for any cold
    /// open that reads the notes from the log. Returns how many records it visited.
    static func scanLog(path: String) throws -> Int {
        var options = LogOptions()
        options.readOnly = true
        let log = try Log(directory: path, options: options)
        defer { try? log.close() }
        let partition = try log.partition(named: zone.zoneName)
        var count = 0
        try partition.forEachRecord(from: partition.startOffset) { _ in
            count += 1
            return true
        }
        return count
    }

    init(path: String, database: Database, manager: RecordNotesManager?) {
        self.path = path
        compaction = database.compactionPolicy
        self.database = database
        self.manager = manager
    }

    /// Opens an existing store (checkpoint, and the views unless `viewsToo` is false — then
    /// `openViews()` registers them) without writing anything.
    static func open(path: String, viewsToo: Bool = true) async throws -> Ours {
        let database = try await Database(directory: path, maximumItemsPerRequest: 1000)
        let ours = Ours(path: path, database: database, manager: nil)
        if viewsToo { try await ours.openViews() }
        return ours
    }

    /// Registers the Notes views (the facade's `RecordNotesManager`).
    func openViews() async throws {
        manager = try await RecordNotesManager(database: database)
    }

    func reopen() async throws {
        database = try await Database(directory: path, maximumItemsPerRequest: 1000, compaction: compaction)
        manager = try await RecordNotesManager(database: database)
    }
}
