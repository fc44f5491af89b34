import Foundation
import Notes
import RecordStore
import Testing
import TestSupport

@Suite struct NotesViewsTests {
    /// Random folder and note operations through the facade; after each, the views the facade
    /// reads from must equal the same views rebuilt by replaying the log.
    @Test("the facade's live views equal the views rebuilt from the log", arguments: [7, 8, 9] as [UInt64])
    func liveEqualsReplayed(seed: UInt64) async throws {
        let database = try await Database.temporary()
        let manager = try await RecordNotesManager(database: database)
        var random = SeededGenerator(seed: seed)
        var folders = [try await manager.createDefaultFolder()]
        for step in 0..<50 {
            switch random.next() % 8 {
            case 0:
                folders.append(try await manager.save(manager.newFolder(name: "Folder \(step)")))
            case 1 where folders.count > 1:
                let index = Int(random.next() % UInt64(folders.count - 1)) + 1
                try await manager.delete(folders.remove(at: index))
            case 2:
                let folder = folders[Int(random.next() % UInt64(folders.count))]
                if let note = try await manager.fetchNotes(in: folder).first { try await manager.delete(note) }
            default:
                let folder = folders[Int(random.next() % UInt64(folders.count))]
                var note = try await manager.fetchNotes(in: folder).last ?? manager.newNote(in: folder)
                if random.next() % 2 == 0 { note = manager.newNote(in: folder) }
                note.content = "step \(step): " + String(repeating: "é", count: Int(random.next() % 30))
                _ = try await manager.save(note)
            }
            #expect(manager.folders.current == (try database.rebuild(FoldersView.self)), "step \(step)")
            #expect(manager.notes.current == (try database.rebuild(NotesView.self)), "step \(step)")
        }
        #expect(manager.folders.current.folders.count == folders.count)
        try database.removeTemporaryDirectory()
    }

    @Test("a reopened store serves the same folders and notes (folders from their snapshot, notes by replay)")
    func reopen() async throws {
        let database = try await Database.temporary()
        let directory = database.directory
        let manager = try await RecordNotesManager(database: database)
        let inbox = try await manager.createDefaultFolder()
        var note = manager.newNote(in: inbox)
        note.content = "kept across reopen"
        let saved = try await manager.save(note)
        try database.close()

        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        let again = try await RecordNotesManager(database: reopened)
        #expect(try await again.fetchFolders() == [inbox])
        #expect(try await again.fetchNotes(in: inbox) == [saved])
        #expect(try await again.createDefaultFolder() == inbox, "the default folder is found, not made again")
        try reopened.removeTemporaryDirectory()
    }
}
