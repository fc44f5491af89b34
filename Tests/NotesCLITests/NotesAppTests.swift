import Notes
import NotesCLI
import Synchronization
import Testing

/// The notes command's logic in-process, over a manager that counts how often it lists folders.
@Suite struct NotesAppTests {
    /// An in-memory manager that counts the calls that list folders or a folder's notes.
    final class ListingCounter: NotesManager {
        let notes = InMemoryNotesManager()
        let listings = Mutex(0)

        func createDefaultFolder() async throws -> Folder { try await notes.createDefaultFolder() }
        func fetchFolders() async throws -> [Folder] {
            listings.withLock { $0 += 1 }
            return try await notes.fetchFolders()
        }
        func save(_ folder: Folder) async throws -> Folder { try await notes.save(folder) }
        func delete(_ folder: Folder) async throws { try await notes.delete(folder) }
        func fetchNotes(in folder: Folder, newestFirst: Bool) async throws -> [Note] {
            listings.withLock { $0 += 1 }
            return try await notes.fetchNotes(in: folder, newestFirst: newestFirst)
        }
        func fetchNote(id: String) async throws -> Note { try await notes.fetchNote(id: id) }
        func save(_ note: Note) async throws -> Note { try await notes.save(note) }
        func delete(_ note: Note) async throws { try await notes.delete(note) }
        func noteUpdates() -> AsyncStream<NoteUpdate> { notes.noteUpdates() }
    }

    /// A manager with a few folders, and the id of a note in the last one.
    static func filled() async throws -> (ListingCounter, noteID: String) {
        let manager = ListingCounter()
        let app = NotesApp(manager: manager)
        for name in ["A", "B", "C"] { _ = try await app.addFolder(name: name) }
        let added = try await app.add(text: "Call Anna", folderName: "C")
        let id = try #require(added.split(separator: "\n").last.map(String.init))
        manager.listings.withLock { $0 = 0 }
        return (manager, id)
    }

    @Test("edit and delete find the note by its id alone, listing no folder")
    func editAndDeleteLookUpByID() async throws {
        let (manager, id) = try await Self.filled()
        let app = NotesApp(manager: manager)
        #expect(try await app.edit(id: id, text: "Call Anna on Monday") == "edited \(id): Call Anna on Monday")
        #expect(try await manager.fetchNote(id: id).content == "Call Anna on Monday")
        #expect(try await app.delete(id: id) == "deleted \(id)")
        #expect(manager.listings.withLock { $0 } == 0)
        await #expect(throws: NotesError.noteNotFound(id: id)) { _ = try await manager.fetchNote(id: id) }
    }

    @Test("edit and delete of an unknown id say noSuchNote and change nothing")
    func unknownID() async throws {
        let (manager, id) = try await Self.filled()
        let app = NotesApp(manager: manager)
        await #expect(throws: NotesAppError.noSuchNote("no-such-id")) { _ = try await app.edit(id: "no-such-id", text: "x") }
        await #expect(throws: NotesAppError.noSuchNote("no-such-id")) { _ = try await app.delete(id: "no-such-id") }
        #expect(try await manager.fetchNote(id: id).content == "Call Anna")
    }
}
