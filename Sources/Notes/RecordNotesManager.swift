import Foundation
import RecordStore

/// The Notes facade over a RecordStore `Database`: folders and notes are records of the "Notes"
/// zone, and reads are served by the `FoldersView` and `NotesView` materialized views, kept live
/// on every commit and rebuilt from the log when the store opens.
///
/// ```swift
/// let database = try await Database(directory: path)
/// let notes = try await RecordNotesManager(database: database)
/// let inbox = try await notes.createDefaultFolder()
/// ```
public final class RecordNotesManager: NotesManager {
    public let database: Database
    /// The zone holding the folders and notes.
    public static let zone = NotesRecords.zone
    /// The folders view the facade reads from.
    public let folders: ViewHandle<FoldersView>
    /// The notes view the facade reads from.
    public let notes: ViewHandle<NotesView>
    private let updates = UpdateBroadcaster()

    /// Opens the facade over `database`, creating the Notes zone when missing (unless the
    /// database is read-only: a reader shows what the store's writer has made, and reads catch
    /// up with it first).
    public init(database: Database) async throws {
        self.database = database
        if !database.isReadOnly { try await database.createZone(NotesRecords.zone) }
        folders = try database.register(FoldersView.self)
        notes = try database.register(NotesView.self)
    }

    public func createDefaultFolder() async throws -> Folder {
        let folder = Folder(id: Folder.defaultID, name: Folder.defaultName)
        do {
            // A new record under the fixed name: if another process made it first, the store
            // answers with a conflict carrying its copy — that copy is the default folder.
            let saved = try await database.save(try NotesRecords.record(for: folder))
            return try stored(NotesRecords.folder(from: saved))
        } catch let error as RecordStoreError where error.code == .serverRecordChanged {
            return try stored(error.serverRecord.flatMap(NotesRecords.folder(from:)))
        }
    }

    public func fetchFolders() async throws -> [Folder] {
        try await database.refresh()
        return await folders.read { $0.sorted }
    }

    public func save(_ folder: Folder) async throws -> Folder {
        guard !folder.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw NotesError.invalidFolderName(folder.name)
        }
        let saved = try await database.save(try NotesRecords.record(for: folder), savePolicy: .changedKeys)
        return try stored(NotesRecords.folder(from: saved))
    }

    public func delete(_ folder: Folder) async throws {
        let gone = await notes.read { $0.notes(in: folder.id, newestFirst: false) }
        do {
            try await database.delete(RecordID(recordName: folder.id, zoneID: NotesRecords.zone))
        } catch let error as RecordStoreError where error.code == .unknownItem {
            throw NotesError.folderNotFound(id: folder.id)
        }
        for note in gone { updates.post(.deleted(id: note.id, folderID: folder.id)) }
    }

    public func fetchNotes(in folder: Folder, newestFirst: Bool) async throws -> [Note] {
        try await database.refresh()
        guard await folders.read({ $0.folders[folder.id] != nil }) else { throw NotesError.folderNotFound(id: folder.id) }
        let twoThreadsFrom = database.tuning.twoThreadReadItems
        return await notes.read { $0.notes(in: folder.id, newestFirst: newestFirst, twoThreadsFrom: twoThreadsFrom) }
    }

    /// One lookup by record name in the Notes view, which serves `fetchNotes(in:)` too.
    public func fetchNote(id: String) async throws -> Note {
        try await database.refresh()
        guard let note = await notes.read({ $0.note(id) }) else { throw NotesError.noteNotFound(id: id) }
        return note
    }

    public func save(_ note: Note) async throws -> Note {
        guard await folders.read({ $0.folders[note.folderID] != nil }) else { throw NotesError.folderNotFound(id: note.folderID) }
        do {
            let saved = try await database.save(try NotesRecords.record(for: note), savePolicy: .changedKeys)
            let stored = try stored(NotesRecords.note(from: saved))
            updates.post(.saved(stored))
            return stored
        } catch let error as RecordStoreError where error.code == .referenceViolation {
            // The folder was deleted since the check above.
            throw NotesError.folderNotFound(id: note.folderID)
        }
    }

    public func delete(_ note: Note) async throws {
        let folderID = await notes.read { $0.note(note.id)?.folderID } ?? note.folderID
        do {
            try await database.delete(RecordID(recordName: note.id, zoneID: NotesRecords.zone))
        } catch let error as RecordStoreError where error.code == .unknownItem {
            throw NotesError.noteNotFound(id: note.id)
        }
        updates.post(.deleted(id: note.id, folderID: folderID))
    }

    public func noteUpdates() -> AsyncStream<NoteUpdate> {
        updates.stream()
    }

    private func stored<Value>(_ value: Value?) throws -> Value {
        guard let value else {
            throw RecordStoreError(.internalError, "The store returned a record that is not a Notes folder or note.")
        }
        return value
    }
}
