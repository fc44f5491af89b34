import Foundation
import Notes
import Testing

/// The `NotesManager` contract: every test runs against every implementation, which must behave
/// identically.
@Suite("NotesManager contract", .timeLimit(.minutes(10)))
struct NotesContractTests {
    // MARK: New values

    @Test(arguments: ManagerKind.allCases)
    func newValuesAreUnsavedAndUnstored(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let folder = notes.newFolder(name: "Ideas")
            #expect(folder.name == "Ideas")
            #expect(!folder.id.isEmpty)
            #expect(notes.newFolder(name: "Ideas").id != folder.id)
            #expect(folder.createdAt == nil && folder.modifiedAt == nil)

            let note = notes.newNote(in: folder)
            #expect(note.folderID == folder.id)
            #expect(note.content.isEmpty)
            #expect(note.title == "New Note")
            #expect(!note.id.isEmpty)
            #expect(notes.newNote(in: folder).id != note.id)
            #expect(note.createdAt == nil && note.modifiedAt == nil)

            let stored = try await notes.fetchFolders()
            #expect(stored.isEmpty)
        }
    }

    // MARK: The default folder

    @Test(arguments: ManagerKind.allCases)
    func createDefaultFolderMakesMyNotes(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let start = Date()
            let folder = try await notes.createDefaultFolder()
            let end = Date()
            #expect(folder.id == Folder.defaultID)
            #expect(folder.name == "My Notes")
            #expect(isStoredDate(folder.createdAt))
            #expect(isSaveTime(folder.createdAt, between: start, and: end))
            #expect(folder.modifiedAt == folder.createdAt)
            #expect(try await notes.fetchFolders() == [folder])
            #expect(try await notes.fetchNotes(in: folder).isEmpty)
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func createDefaultFolderTwiceReturnsTheSameFolder(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let first = try await notes.createDefaultFolder()
            let second = try await notes.createDefaultFolder()
            #expect(second == first)
            #expect(try await notes.fetchFolders() == [first])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func createDefaultFolderFromEightTasksMakesOneFolder(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let folders = try await withThrowingTaskGroup(of: Folder.self) { group in
                for _ in 0..<8 { group.addTask { try await notes.createDefaultFolder() } }
                return try await group.reduce(into: [Folder]()) { $0.append($1) }
            }
            #expect(folders.count == 8)
            let stored = try await notes.fetchFolders()
            #expect(stored.count == 1)
            #expect(stored.first?.id == Folder.defaultID)
            #expect(folders.allSatisfy { $0 == stored.first })
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func createDefaultFolderReturnsTheExistingFolderEvenRenamed(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            var folder = try await notes.createDefaultFolder()
            var note = notes.newNote(in: folder)
            note.content = "Kept"
            note = try await notes.save(note)
            folder.name = "Inbox"
            let renamed = try await notes.save(folder)

            #expect(try await notes.createDefaultFolder() == renamed)
            #expect(try await notes.fetchFolders() == [renamed])
            #expect(try await notes.fetchNotes(in: renamed) == [note])
        }
    }

    // MARK: Folders

    @Test(arguments: ManagerKind.allCases)
    func savingAFolderReturnsItWithServerSetDates(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            var folder = notes.newFolder(name: "Work")
            // The caller's dates are not the server's: they are replaced.
            folder.createdAt = Date(timeIntervalSince1970: 12)
            folder.modifiedAt = Date(timeIntervalSince1970: 34)
            let start = Date()
            let saved = try await notes.save(folder)
            let end = Date()

            #expect(saved.id == folder.id)
            #expect(saved.name == "Work")
            #expect(isStoredDate(saved.createdAt))
            #expect(isSaveTime(saved.createdAt, between: start, and: end))
            #expect(saved.modifiedAt == saved.createdAt)
            #expect(try await notes.fetchFolders() == [saved])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func renamingAFolderKeepsItsNotesAndCreationDate(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let work = try await notes.save(notes.newFolder(name: "Work"))
            var note = notes.newNote(in: work)
            note.content = "Quarterly plan"
            note = try await notes.save(note)

            var renamed = work
            renamed.name = "Job"
            let saved = try await notes.save(renamed)
            #expect(saved.id == work.id)
            #expect(saved.name == "Job")
            #expect(saved.createdAt == work.createdAt)
            #expect(try #require(saved.modifiedAt) >= #require(work.modifiedAt))
            #expect(try await notes.fetchFolders() == [saved])
            #expect(try await notes.fetchNotes(in: saved) == [note])

            // A copy without dates is the same folder: its creation date is kept.
            let again = try await notes.save(Folder(id: work.id, name: "Career"))
            #expect(again.createdAt == work.createdAt)
            #expect(try #require(again.modifiedAt) >= #require(saved.modifiedAt))
            #expect(try await notes.fetchFolders() == [again])
            #expect(try await notes.fetchNotes(in: again) == [note])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func foldersAreOrderedByNameThenIdentifier(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let names = ["pears", "Apples", "bananas", "Zebra", "apples", "Äpfel"]
            for name in names { _ = try await notes.save(notes.newFolder(name: name)) }
            _ = try await notes.save(Folder(id: "tie-b", name: "Same"))
            _ = try await notes.save(Folder(id: "tie-a", name: "Same"))
            _ = try await notes.save(Folder(id: "tie-c", name: "Same"))

            let folders = try await notes.fetchFolders()
            #expect(folders.map(\.name) == ["Apples", "Same", "Same", "Same", "Zebra", "apples", "bananas", "pears", "Äpfel"])
            #expect(folders.filter { $0.name == "Same" }.map(\.id) == ["tie-a", "tie-b", "tie-c"])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func renamingAFolderMovesItInTheOrder(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            var alpha = try await notes.save(notes.newFolder(name: "Alpha"))
            let beta = try await notes.save(notes.newFolder(name: "Beta"))
            alpha.name = "Gamma"
            alpha = try await notes.save(alpha)
            #expect(try await notes.fetchFolders() == [beta, alpha])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func anEmptyOrBlankFolderNameIsRefused(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            for name in ["", " ", "   ", "\t", " \n\t "] {
                await #expect(throws: NotesError.invalidFolderName(name)) {
                    _ = try await notes.save(notes.newFolder(name: name))
                }
            }
            #expect(try await notes.fetchFolders().isEmpty)

            // Renaming a stored folder to a blank name is refused too, and changes nothing.
            let work = try await notes.save(notes.newFolder(name: "Work"))
            var blank = work
            blank.name = "  "
            await #expect(throws: NotesError.invalidFolderName("  ")) { _ = try await notes.save(blank) }
            #expect(try await notes.fetchFolders() == [work])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func deletingAFolderRemovesIt(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let work = try await notes.save(notes.newFolder(name: "Work"))
            let home = try await notes.save(notes.newFolder(name: "Home"))
            try await notes.delete(work)
            #expect(try await notes.fetchFolders() == [home])
            await #expect(throws: NotesError.folderNotFound(id: work.id)) { _ = try await notes.fetchNotes(in: work) }
            await #expect(throws: NotesError.folderNotFound(id: work.id)) { try await notes.delete(work) }
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func deletingAMissingFolderThrowsFolderNotFound(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let unsaved = notes.newFolder(name: "Never saved")
            await #expect(throws: NotesError.folderNotFound(id: unsaved.id)) { try await notes.delete(unsaved) }
            await #expect(throws: NotesError.folderNotFound(id: unsaved.id)) {
                _ = try await notes.fetchNotes(in: unsaved, newestFirst: true)
            }
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func deletingAFolderDeletesItsNotesAndPostsTheirDeletion(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let doomed = try await notes.save(notes.newFolder(name: "Doomed"))
            let kept = try await notes.save(notes.newFolder(name: "Kept"))
            for text in ["one", "two", "three"] {
                var note = notes.newNote(in: doomed)
                note.content = text
                _ = try await notes.save(note)
            }
            var survivor = notes.newNote(in: kept)
            survivor.content = "survivor"
            survivor = try await notes.save(survivor)
            let gone = try await notes.fetchNotes(in: doomed)
            #expect(gone.count == 3)

            var iterator = notes.noteUpdates().makeAsyncIterator()
            try await notes.delete(doomed)
            let barrier = try await notes.save(notes.newNote(in: kept))

            let received = await updates(from: &iterator, through: barrier.id)
            let deletions = gone.map { NoteUpdate.deleted(id: $0.id, folderID: doomed.id) }
            #expect(received == deletions + [.saved(barrier)])
            #expect(try await notes.fetchFolders() == [kept])
            #expect(Set(try await notes.fetchNotes(in: kept)) == [survivor, barrier])
            for note in gone {
                await #expect(throws: NotesError.noteNotFound(id: note.id)) { try await notes.delete(note) }
            }
            // Its notes cannot come back into the deleted folder.
            await #expect(throws: NotesError.folderNotFound(id: doomed.id)) { _ = try await notes.save(gone[0]) }
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func deletingAnEmptyFolderPostsNothing(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            let empty = try await notes.save(notes.newFolder(name: "Empty"))
            var iterator = notes.noteUpdates().makeAsyncIterator()
            try await notes.delete(empty)
            let barrier = try await notes.save(notes.newNote(in: inbox))
            #expect(await updates(from: &iterator, through: barrier.id) == [.saved(barrier)])
        }
    }

    // MARK: Notes

    @Test(arguments: ManagerKind.allCases)
    func savingANoteReturnsItWithServerSetDates(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            var note = notes.newNote(in: inbox)
            note.content = "Shopping list\nmilk, eggs, bread"
            note.createdAt = Date(timeIntervalSince1970: 12)
            note.modifiedAt = Date(timeIntervalSince1970: 34)
            let start = Date()
            let saved = try await notes.save(note)
            let end = Date()

            #expect(saved.id == note.id)
            #expect(saved.folderID == inbox.id)
            #expect(saved.content == note.content)
            #expect(saved.title == "Shopping list")
            #expect(isStoredDate(saved.createdAt))
            #expect(isSaveTime(saved.createdAt, between: start, and: end))
            #expect(saved.modifiedAt == saved.createdAt)
            #expect(try await notes.fetchNotes(in: inbox) == [saved])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func editingANoteKeepsItsCreationDateAndNeverMovesItsModificationDateBack(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            var note = notes.newNote(in: inbox)
            note.content = "Draft"
            var previous = try await notes.save(note)
            let created = try #require(previous.createdAt)
            for version in 1...5 {
                var edited = previous
                edited.content = "Draft \(version)"
                let start = Date()
                let saved = try await notes.save(edited)
                let end = Date()
                #expect(saved.content == "Draft \(version)")
                #expect(saved.createdAt == created)
                #expect(try #require(saved.modifiedAt) >= #require(previous.modifiedAt))
                #expect(isStoredDate(saved.modifiedAt))
                #expect(isSaveTime(saved.modifiedAt, between: start, and: end))
                previous = saved
            }
            // A copy without dates is the same note: its creation date is kept.
            let copy = try await notes.save(Note(id: note.id, folderID: inbox.id, content: "Final"))
            #expect(copy.createdAt == created)
            #expect(try #require(copy.modifiedAt) >= #require(previous.modifiedAt))
            #expect(try await notes.fetchNotes(in: inbox) == [copy])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func savingANoteIntoAMissingFolderThrowsFolderNotFoundAndPostsNothing(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            let unsaved = notes.newFolder(name: "Never saved")
            var iterator = notes.noteUpdates().makeAsyncIterator()
            await #expect(throws: NotesError.folderNotFound(id: unsaved.id)) {
                _ = try await notes.save(notes.newNote(in: unsaved))
            }
            // Moving a stored note into a missing folder fails too, and leaves it where it was.
            let stored = try await notes.save(notes.newNote(in: inbox))
            var moved = stored
            moved.folderID = unsaved.id
            await #expect(throws: NotesError.folderNotFound(id: unsaved.id)) { _ = try await notes.save(moved) }
            #expect(try await notes.fetchNotes(in: inbox) == [stored])

            let barrier = try await notes.save(notes.newNote(in: inbox))
            #expect(await updates(from: &iterator, through: barrier.id) == [.saved(stored), .saved(barrier)])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func savingANoteWithAnotherFolderMovesIt(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            let archive = try await notes.save(notes.newFolder(name: "Archive"))
            var note = notes.newNote(in: inbox)
            note.content = "Move me"
            note = try await notes.save(note)
            var moved = note
            moved.folderID = archive.id
            moved = try await notes.save(moved)

            #expect(moved.folderID == archive.id)
            #expect(moved.createdAt == note.createdAt)
            #expect(try await notes.fetchNotes(in: inbox).isEmpty)
            #expect(try await notes.fetchNotes(in: archive) == [moved])
            // Its old folder's deletion leaves it alone.
            try await notes.delete(inbox)
            #expect(try await notes.fetchNotes(in: archive) == [moved])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func notesAreOrderedByModificationDateThenIdentifier(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            let other = try await notes.save(notes.newFolder(name: "Other"))
            // Saved in quick succession, so many share a millisecond; identifiers out of order.
            var stored: [String: Note] = [:]
            for index in 0..<24 {
                let id = "note-" + String((index * 7) % 24 + 10)
                stored[id] = try await notes.save(Note(id: id, folderID: inbox.id, content: "Note \(index)"))
            }
            // Edit a few: they move later.
            for id in ["note-10", "note-11", "note-12"] {
                var edited = try #require(stored[id])
                edited.content += " (edited)"
                stored[id] = try await notes.save(edited)
            }
            _ = try await notes.save(notes.newNote(in: other))

            func key(_ note: Note) throws -> (Date, String) { (try #require(note.modifiedAt), note.id) }
            let expected = try stored.values.sorted { try key($0) < key($1) }
            let oldestFirst = try await notes.fetchNotes(in: inbox)
            #expect(oldestFirst == expected)
            #expect(try await notes.fetchNotes(in: inbox, newestFirst: false) == expected)
            #expect(try await notes.fetchNotes(in: inbox, newestFirst: true) == expected.reversed())
            // An edit is dated no earlier than any save before it.
            let edits = ["note-10", "note-11", "note-12"].compactMap { stored[$0]?.modifiedAt }
            let others = stored.values.filter { !["note-10", "note-11", "note-12"].contains($0.id) }.compactMap(\.modifiedAt)
            #expect(edits.count == 3 && others.count == 21)
            #expect(try #require(edits.min()) >= #require(others.max()))
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func fetchingNotesListsOnlyTheFoldersNotes(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            let work = try await notes.save(notes.newFolder(name: "Work"))
            let mine = try await notes.save(notes.newNote(in: inbox))
            let theirs = try await notes.save(notes.newNote(in: work))
            #expect(try await notes.fetchNotes(in: inbox) == [mine])
            #expect(try await notes.fetchNotes(in: work) == [theirs])
            let empty = try await notes.save(notes.newFolder(name: "Empty"))
            #expect(try await notes.fetchNotes(in: empty).isEmpty)
            #expect(try await notes.fetchNotes(in: empty, newestFirst: true).isEmpty)
        }
    }

    @Test("fetchNote(id:) returns the stored note, in whichever folder, as last saved", arguments: ManagerKind.allCases)
    func fetchingANoteByItsID(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            let work = try await notes.save(notes.newFolder(name: "Work"))
            var mine = notes.newNote(in: inbox)
            mine.content = "Buy milk"
            mine = try await notes.save(mine)
            let theirs = try await notes.save(notes.newNote(in: work))
            #expect(try await notes.fetchNote(id: mine.id) == mine)
            #expect(try await notes.fetchNote(id: theirs.id) == theirs)

            mine.content = "Buy oat milk"
            mine.folderID = work.id
            mine = try await notes.save(mine)
            let fetched = try await notes.fetchNote(id: mine.id)
            #expect(fetched == mine)
            #expect(fetched.folderID == work.id && fetched.title == "Buy oat milk")
        }
    }

    @Test("fetchNote(id:) of an id no note has throws noteNotFound: never saved, or a folder's", arguments: ManagerKind.allCases)
    func fetchingAnUnknownNoteThrowsNoteNotFound(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            let unsaved = notes.newNote(in: inbox)
            await #expect(throws: NotesError.noteNotFound(id: unsaved.id)) { _ = try await notes.fetchNote(id: unsaved.id) }
            await #expect(throws: NotesError.noteNotFound(id: inbox.id)) { _ = try await notes.fetchNote(id: inbox.id) }
            await #expect(throws: NotesError.noteNotFound(id: "")) { _ = try await notes.fetchNote(id: "") }
        }
    }

    @Test("fetchNote(id:) throws noteNotFound after the note, or its folder, is deleted", arguments: ManagerKind.allCases)
    func fetchingADeletedNoteThrowsNoteNotFound(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            let doomed = try await notes.save(notes.newFolder(name: "Doomed"))
            let deleted = try await notes.save(notes.newNote(in: inbox))
            let kept = try await notes.save(notes.newNote(in: inbox))
            let cascaded = try await notes.save(notes.newNote(in: doomed))
            try await notes.delete(deleted)
            try await notes.delete(doomed)
            await #expect(throws: NotesError.noteNotFound(id: deleted.id)) { _ = try await notes.fetchNote(id: deleted.id) }
            await #expect(throws: NotesError.noteNotFound(id: cascaded.id)) { _ = try await notes.fetchNote(id: cascaded.id) }
            #expect(try await notes.fetchNote(id: kept.id) == kept)
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func deletingANoteRemovesItAndPostsItsDeletion(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            let doomed = try await notes.save(notes.newNote(in: inbox))
            let kept = try await notes.save(notes.newNote(in: inbox))
            var iterator = notes.noteUpdates().makeAsyncIterator()

            try await notes.delete(doomed)
            #expect(try await notes.fetchNotes(in: inbox) == [kept])
            await #expect(throws: NotesError.noteNotFound(id: doomed.id)) { try await notes.delete(doomed) }
            let unsaved = notes.newNote(in: inbox)
            await #expect(throws: NotesError.noteNotFound(id: unsaved.id)) { try await notes.delete(unsaved) }

            let barrier = try await notes.save(notes.newNote(in: inbox))
            #expect(
                await updates(from: &iterator, through: barrier.id) == [
                    .deleted(id: doomed.id, folderID: inbox.id), .saved(barrier),
                ])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func deletingAStaleCopyPostsTheStoredFolder(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            let archive = try await notes.save(notes.newFolder(name: "Archive"))
            let original = try await notes.save(notes.newNote(in: inbox))
            var moved = original
            moved.folderID = archive.id
            _ = try await notes.save(moved)
            var iterator = notes.noteUpdates().makeAsyncIterator()

            try await notes.delete(original)  // still says inbox
            #expect(try await notes.fetchNotes(in: archive).isEmpty)
            let barrier = try await notes.save(notes.newNote(in: inbox))
            #expect(
                await updates(from: &iterator, through: barrier.id) == [
                    .deleted(id: original.id, folderID: archive.id), .saved(barrier),
                ])
        }
    }

    // MARK: Updates

    @Test(arguments: ManagerKind.allCases)
    func updatesArePostedInOrderToEveryOpenStream(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            var early = notes.noteUpdates().makeAsyncIterator()
            var first = notes.newNote(in: inbox)
            first.content = "first"
            first = try await notes.save(first)
            let second = try await notes.save(notes.newNote(in: inbox))

            var late = notes.noteUpdates().makeAsyncIterator()
            var edited = first
            edited.content = "first, edited"
            edited = try await notes.save(edited)
            try await notes.delete(second)
            let barrier = try await notes.save(notes.newNote(in: inbox))

            let tail: [NoteUpdate] = [.saved(edited), .deleted(id: second.id, folderID: inbox.id), .saved(barrier)]
            #expect(await updates(from: &early, through: barrier.id) == [.saved(first), .saved(second)] + tail)
            #expect(await updates(from: &late, through: barrier.id) == tail)
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func folderChangesAndFailuresPostNoNoteUpdates(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            var iterator = notes.noteUpdates().makeAsyncIterator()

            _ = try await notes.createDefaultFolder()
            var work = try await notes.save(notes.newFolder(name: "Work"))
            work.name = "Job"
            work = try await notes.save(work)
            try await notes.delete(work)
            _ = try? await notes.save(notes.newFolder(name: " "))
            _ = try? await notes.save(notes.newNote(in: work))
            _ = try? await notes.delete(notes.newNote(in: inbox))
            _ = try await notes.fetchFolders()
            _ = try await notes.fetchNotes(in: inbox)

            let barrier = try await notes.save(notes.newNote(in: inbox))
            #expect(await updates(from: &iterator, through: barrier.id) == [.saved(barrier)])
        }
    }

    @Test(arguments: ManagerKind.allCases)
    func concurrentSavesEachPostOneUpdate(kind: ManagerKind) async throws {
        try await withManager(kind) { notes in
            let inbox = try await notes.createDefaultFolder()
            var iterator = notes.noteUpdates().makeAsyncIterator()
            let saved = try await withThrowingTaskGroup(of: Note.self) { group in
                for index in 0..<16 {
                    group.addTask { try await notes.save(Note(folderID: inbox.id, content: "Note \(index)")) }
                }
                return try await group.reduce(into: Set<Note>()) { $0.insert($1) }
            }
            let barrier = try await notes.save(notes.newNote(in: inbox))

            let received = await updates(from: &iterator, through: barrier.id)
            #expect(received.count == 17)
            #expect(Set(received.dropLast()) == Set(saved.map(NoteUpdate.saved)))
            #expect(received.last == .saved(barrier))
            #expect(Set(try await notes.fetchNotes(in: inbox)) == saved.union([barrier]))
        }
    }
}
