import Foundation
import Notes
import RecordStore
import Testing
import TuningSupport
import TestSupport

@Suite(.everyTuning) struct NotesViewsTests {
    /// Random folder and note operations through the facade (``randomNotesSteps``).
    @Test("the facade's live views equal the views rebuilt from the log", arguments: [7, 8, 9] as [UInt64])
    func liveEqualsReplayed(seed: UInt64) async throws {
        let database = try await Database.temporary()
        let manager = try await RecordNotesManager(database: database)
        var random = SeededGenerator(seed: seed)
        _ = try await manager.createDefaultFolder()
        let folders = try await randomNotesSteps(50, manager, database, &random)
        #expect(await manager.folders.current.folders.count == folders.count)
        try database.removeTemporaryDirectory()
    }

    @Test("a reopened store serves the same folders and notes (folders from their snapshot, notes by replay)")
    func reopen() async throws {
        let database = try await Database.temporary()
        let directory = try #require(database.directory)
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
