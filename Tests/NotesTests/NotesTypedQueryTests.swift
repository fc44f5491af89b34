import Foundation
import Notes
import RecordStore
import Testing

@Suite struct NotesTypedQueryTests {
    @Test("Query<Note> filters by folder and title prefix, sorts by modification date, pages with a cursor")
    func typedQuery() async throws {
        let database = try await Database.temporary()
        let manager = try await RecordNotesManager(database: database)
        let inbox = try await manager.createDefaultFolder()
        let work = try await manager.save(manager.newFolder(name: "Work"))
        var saved: [Note] = []
        for text in ["Apples", "Bread", "Avocados", "Apricots", "Butter"] {
            var note = manager.newNote(in: inbox)
            note.content = text
            saved.append(try await manager.save(note))
        }
        var elsewhere = manager.newNote(in: work)
        elsewhere.content = "Agenda"
        _ = try await manager.save(elsewhere)

        let query = Query<Note>().filter(.folderID, equals: inbox.id).filter(.title, beginsWith: "A")
            .sorted(by: .modifiedAt, ascending: false).limit(2).debug()
        let first = try await query.fetch(from: database, in: RecordNotesManager.zone)
        #expect(first.models.count == 2)
        let cursor = try #require(first.cursor)
        let second = try await query.fetch(continuing: cursor, from: database)
        #expect(second.cursor == nil)
        let pages = first.models + second.models
        // Every "A" note of the inbox exactly once, newest first (saves may share a millisecond).
        #expect(Set(pages.map(\.id)) == Set(saved.filter { $0.title.hasPrefix("A") }.map(\.id)))
        #expect(pages.count == 3)
        let dates = pages.compactMap(\.modifiedAt)
        #expect(dates.count == 3 && zip(dates, dates.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(pages.allSatisfy { $0.folderID == inbox.id && $0.content.hasPrefix("A") })
        try database.removeTemporaryDirectory()
    }

    @Test("a note round-trips through its record: the folder is a .deleteSelf reference and the title is stored")
    func noteRecordMapping() throws {
        let note = Note(id: "n1", folderID: "f1", content: "A note whose first line is long\nsecond")
        let record = try note.encodedRecord(in: RecordNotesManager.zone)
        #expect(record["title"] == .string(note.title))
        guard case .reference(let folder)? = record["folder"] else {
            Issue.record("the folder must be a reference")
            return
        }
        #expect(folder.action == .deleteSelf)
        #expect(folder.recordID == RecordID(recordName: "f1", zoneID: RecordNotesManager.zone))
        #expect(try Note(decoding: record) == note)
    }
}

@Suite struct NotesMappingTests {
    @Test("the hand-written record mapping the views use equals the Codable mapping")
    func mappingsAgree() async throws {
        let database = try await Database.temporary()
        let manager = try await RecordNotesManager(database: database)
        let folder = try await manager.save(manager.newFolder(name: "Ideas"))
        var note = manager.newNote(in: folder)
        note.content = "Crème brûlée for twenty people\nwith 🍓"
        let saved = try await manager.save(note)
        let noteRecord = try await database.record(for: RecordID(recordName: saved.id, zoneID: RecordNotesManager.zone))
        let folderRecord = try await database.record(for: RecordID(recordName: folder.id, zoneID: RecordNotesManager.zone))
        #expect(try Note(decoding: noteRecord) == saved)
        #expect(try Folder(decoding: folderRecord) == folder)
        let encoded = try saved.encodedRecord(in: RecordNotesManager.zone)
        for key in encoded.allKeys() { #expect(encoded[key] == noteRecord[key], "\(key)") }
        #expect(Set(encoded.allKeys()) == Set(noteRecord.allKeys()))
        try database.removeTemporaryDirectory()
    }
}
