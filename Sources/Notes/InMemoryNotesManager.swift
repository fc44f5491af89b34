import Foundation
import StorageKit

/// A `NotesManager` that keeps its folders and notes in memory: for previews, tests and as the
/// reference the record-backed manager is checked against (one contract suite runs against both).
///
/// Its rules, which `RecordNotesManager` follows too:
/// - Saving is an upsert, last writer wins. The caller's dates are ignored: `createdAt` is set on
///   the first save and kept after, `modifiedAt` is the time of each save. Both are whole
///   milliseconds, as the record store stores dates.
/// - Folders are ordered by name, then identifier; notes by modification date, then identifier,
///   and newest first is exactly the reverse of oldest first (ties too).
/// - Deleting a folder deletes its notes, and posts `.deleted` for each of them (oldest first, the
///   order `fetchNotes(in:)` lists them), so that a screen showing one of them learns it is gone.
/// - Every update is posted while the change is applied, so each stream sees the updates in the
///   order the changes happened.
///
/// ```swift
/// let notes = InMemoryNotesManager()
/// let inbox = try await notes.createDefaultFolder()
/// var note = notes.newNote(in: inbox)
/// note.content = "Buy milk"
/// note = try await notes.save(note)
/// ```
public final class InMemoryNotesManager: NotesManager {
    private struct State {
        var folders: [String: Folder] = [:]
        var notes: [String: Note] = [:]
    }

    private let state = LockedValue(State())
    private let updates = UpdateBroadcaster()
    private let clock: @Sendable () -> Date

    /// An empty manager.
    ///
    /// - Parameter now: the clock that dates saves (rounded to whole milliseconds); the system
    ///   clock unless a test needs fixed dates.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        clock = now
    }

    deinit {
        updates.finish()
    }

    public func createDefaultFolder() async throws -> Folder {
        let now = timestamp()
        return state.withLock { state in
            if let existing = state.folders[Folder.defaultID] { return existing }
            let folder = Folder(id: Folder.defaultID, name: Folder.defaultName, createdAt: now, modifiedAt: now)
            state.folders[folder.id] = folder
            return folder
        }
    }

    public func fetchFolders() async throws -> [Folder] {
        state.withLock { state in
            state.folders.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        }
    }

    public func save(_ folder: Folder) async throws -> Folder {
        guard !folder.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw NotesError.invalidFolderName(folder.name)
        }
        let now = timestamp()
        return state.withLock { state in
            var stored = folder
            stored.createdAt = state.folders[folder.id]?.createdAt ?? now
            stored.modifiedAt = now
            state.folders[stored.id] = stored
            return stored
        }
    }

    public func delete(_ folder: Folder) async throws {
        try state.withLock { state in
            guard state.folders.removeValue(forKey: folder.id) != nil else {
                throw NotesError.folderNotFound(id: folder.id)
            }
            for note in Self.notes(in: folder.id, of: state, newestFirst: false) {
                state.notes[note.id] = nil
                updates.post(.deleted(id: note.id, folderID: note.folderID))
            }
        }
    }

    public func fetchNotes(in folder: Folder, newestFirst: Bool) async throws -> [Note] {
        try state.withLock { state in
            guard state.folders[folder.id] != nil else { throw NotesError.folderNotFound(id: folder.id) }
            return Self.notes(in: folder.id, of: state, newestFirst: newestFirst)
        }
    }

    public func fetchNote(id: String) async throws -> Note {
        try state.withLock { state in
            guard let note = state.notes[id] else { throw NotesError.noteNotFound(id: id) }
            return note
        }
    }

    public func save(_ note: Note) async throws -> Note {
        let now = timestamp()
        return try state.withLock { state in
            guard state.folders[note.folderID] != nil else { throw NotesError.folderNotFound(id: note.folderID) }
            var stored = note
            stored.createdAt = state.notes[note.id]?.createdAt ?? now
            stored.modifiedAt = now
            state.notes[stored.id] = stored
            updates.post(.saved(stored))
            return stored
        }
    }

    public func delete(_ note: Note) async throws {
        try state.withLock { state in
            guard let stored = state.notes.removeValue(forKey: note.id) else {
                throw NotesError.noteNotFound(id: note.id)
            }
            updates.post(.deleted(id: stored.id, folderID: stored.folderID))
        }
    }

    public func noteUpdates() -> AsyncStream<NoteUpdate> {
        updates.stream()
    }

    /// The notes of one folder by modification date and then identifier, oldest first, or the
    /// exact reverse.
    private static func notes(in folderID: String, of state: State, newestFirst: Bool) -> [Note] {
        let oldestFirst = state.notes.values
            .filter { $0.folderID == folderID }
            // Every stored note has a modification date.
            .sorted { ($0.modifiedAt ?? .distantPast, $0.id) < ($1.modifiedAt ?? .distantPast, $1.id) }
        return newestFirst ? oldestFirst.reversed() : oldestFirst
    }

    /// Now, in whole milliseconds, as the record store stores dates.
    private func timestamp() -> Date {
        Date(timeIntervalSince1970: (clock().timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
