import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// A wrapper in the style of the original Notes app.
private struct NoteRecord: RecordWrapper {
    enum FieldKey: String { case title, count, ratio, pinned, due, blob, place, tags, folder }
    static let recordType = "Note"
    var record: Record
    init(record: Record) { self.record = record }

    var title: String {
        get { string(.title) ?? "" }
        set { setField(.title, .string(newValue)) }
    }
}

private struct FolderRecord: RecordWrapper {
    enum FieldKey: String { case name }
    static let recordType = "Folder"
    var record: Record
    init(record: Record) { self.record = record }
}

@Suite("Typed records: record wrappers", .everyTuning)
struct TypedWrapperTests {
    @Test("typed getters read their kind and return nil for absent fields and other kinds")
    func accessors() {
        var note = NoteRecord(recordID: RecordID(recordName: "n1"))
        #expect(note.record.recordType == "Note")
        note.title = "Groceries"
        note.setField(.count, .int64(3))
        note[.ratio] = .double(0.25)
        note.setField(.pinned, .bool(true))
        note.setField(.due, .date(Date(timeIntervalSince1970: 10)))
        note.setField(.blob, .bytes([1, 2]))
        note.setField(.place, .location(Location(latitude: 1, longitude: 2)))
        note.setField(.tags, .list([.string("a"), .string("b")]))
        #expect(note.title == "Groceries")
        #expect(note.int(.count) == 3)
        #expect(note.double(.ratio) == 0.25)
        #expect(note.double(.count) == 3)
        #expect(note.bool(.pinned) == true)
        #expect(note.date(.due) == Date(timeIntervalSince1970: 10))
        #expect(note.bytes(.blob) == [1, 2])
        #expect(note.location(.place) == Location(latitude: 1, longitude: 2))
        #expect(note.strings(.tags) == ["a", "b"])
        #expect(note.list(.tags)?.count == 2)
        #expect(note.string(.count) == nil)
        #expect(note.int(.title) == nil)
        #expect(note.referencedID(.folder) == nil)
        note.setField(.count, nil)
        #expect(note.field(.count) == nil)
        #expect(note.record.allKeys().contains("count") == false)
        #expect(note.created == nil && note.modified == nil && note.changeTag == nil)
    }

    @Test("references, identifier and system dates through a store", arguments: StoreKind.allCases)
    func referencesAndSystemFields(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let folder = FolderRecord(record: try await database.save(FolderRecord(recordID: RecordID(recordName: "f1")).record))
            var note = NoteRecord(recordID: RecordID(recordName: "n1"))
            note.title = "Hi"
            note.setReference(.folder, to: folder.identifier, action: .deleteSelf)
            #expect(note.reference(.folder) == folder.reference(action: .deleteSelf))
            #expect(note.reference(to: folder.identifier) == Reference(recordID: folder.identifier))
            let saved = NoteRecord(record: try await database.save(note.record))
            #expect(saved.identifier == RecordID(recordName: "n1"))
            #expect(saved.referencedID(.folder) == folder.identifier)
            #expect(saved.created != nil)
            #expect(saved.modified != nil)
            #expect(saved.changeTag != nil)
            // The folder's deletion takes the note with it (a .deleteSelf reference).
            try await database.delete(folder.identifier)
            await #expect(throws: RecordStoreError.self) { try await database.record(for: saved.identifier) }
        }
    }

    @Test("init(checking:) refuses a record of another type")
    func checking() throws {
        let folder = Record(recordType: "Folder", recordID: RecordID(recordName: "f1"))
        #expect(throws: RecordMappingError.wrongRecordType(expected: "Note", found: "Folder")) { try NoteRecord(checking: folder) }
        #expect(try FolderRecord(checking: folder).identifier == folder.recordID)
    }
}
