/// A change to a note, as posted after every save or delete.
public enum NoteUpdate: Sendable, Hashable {
    case saved(Note)
    case deleted(id: String, folderID: String)
}

/// The Notes app's facade: folders and notes, saved and fetched asynchronously.
///
/// Two implementations behave identically (one contract test suite runs against both):
/// `InMemoryNotesManager` and `RecordNotesManager` over a RecordStore `Database`.
///
/// ```swift
/// let notes: any NotesManager = try await RecordNotesManager(database: database)
/// let inbox = try await notes.createDefaultFolder()
/// var note = notes.newNote(in: inbox)
/// note.content = "Buy milk"
/// note = try await notes.save(note)            // now with its dates
/// let all = try await notes.fetchNotes(in: inbox)
/// ```
public protocol NotesManager: Sendable {
    /// A new, unsaved folder.
    func newFolder(name: String) -> Folder
    /// A new, unsaved, empty note in `folder`.
    func newNote(in folder: Folder) -> Note
    /// The "My Notes" folder, created on first use; later calls, from any process, return it.
    func createDefaultFolder() async throws -> Folder
    /// Every folder, ordered by name.
    func fetchFolders() async throws -> [Folder]
    /// Saves a folder (creating or renaming it) and returns it as stored, with its dates.
    ///
    /// - Throws: `NotesError.invalidFolderName` for an empty name.
    func save(_ folder: Folder) async throws -> Folder
    /// Deletes a folder and, in the same commit, its notes.
    ///
    /// - Throws: `NotesError.folderNotFound`.
    func delete(_ folder: Folder) async throws
    /// The folder's notes by modification date, oldest first (newest first with `newestFirst`).
    ///
    /// - Throws: `NotesError.folderNotFound`.
    func fetchNotes(in folder: Folder, newestFirst: Bool) async throws -> [Note]
    /// The note with this id, as stored (in whichever folder it is).
    ///
    /// ```swift
    /// var note = try await notes.fetchNote(id: id)
    /// note.content = "Buy oat milk"
    /// note = try await notes.save(note)
    /// ```
    ///
    /// - Throws: `NotesError.noteNotFound` when no stored note has this id (never saved, deleted,
    ///   or the id of a folder).
    func fetchNote(id: String) async throws -> Note
    /// Saves a note and returns it as stored, with its dates; posts a `NoteUpdate`.
    ///
    /// - Throws: `NotesError.folderNotFound` when its folder does not exist.
    func save(_ note: Note) async throws -> Note
    /// Deletes a note; posts a `NoteUpdate`.
    ///
    /// - Throws: `NotesError.noteNotFound`.
    func delete(_ note: Note) async throws
    /// The updates of every note saved or deleted through this manager from now on.
    func noteUpdates() -> AsyncStream<NoteUpdate>
}

extension NotesManager {
    public func newFolder(name: String) -> Folder { Folder(name: name) }

    public func newNote(in folder: Folder) -> Note { Note(folderID: folder.id) }

    /// The folder's notes, oldest first.
    public func fetchNotes(in folder: Folder) async throws -> [Note] {
        try await fetchNotes(in: folder, newestFirst: false)
    }
}
