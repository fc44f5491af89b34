import Foundation
import RecordStore

/// Where and how folders and notes are stored: records of the store's "Notes" zone, mapped by
/// their `RecordCodable` conformances (Note+Record.swift).
enum NotesRecords {
    static let zone = ZoneID(zoneName: "Notes")
    static let folderType = Folder.recordType
    static let noteType = Note.recordType

    // The mapping is written out by hand: the views decode every note on replay, and the generic
    // Codable mapping (RecordEncoder/RecordDecoder) costs about three times as much per record.
    // A test checks that both mappings give the same records and values.

    static func record(for folder: Folder) throws -> Record {
        var record = Record(recordType: folderType, recordID: RecordID(recordName: folder.id, zoneID: zone))
        record[Folder.Fields.name.rawValue] = .string(folder.name)
        return record
    }

    static func record(for note: Note) throws -> Record {
        var record = Record(recordType: noteType, recordID: RecordID(recordName: note.id, zoneID: zone))
        record[Note.Fields.content.rawValue] = .string(note.content)
        record[Note.Fields.title.rawValue] = .string(note.title)
        record[Note.Fields.folderID.rawValue] = .reference(
            Reference(recordID: RecordID(recordName: note.folderID, zoneID: zone), action: .deleteSelf))
        return record
    }

    static func folder(from record: some NotesRecordSource) -> Folder? {
        guard record.hasRecordType(folderType), case .string(let name)? = record[Folder.Fields.name.rawValue] else { return nil }
        return Folder(id: record.recordID.recordName, name: name, createdAt: record.creationDate, modifiedAt: record.modificationDate)
    }

    /// The note a record holds; reads only its `folder` and `content` fields (not `title`).
    static func note(from record: some NotesRecordSource) -> Note? {
        guard record.hasRecordType(noteType), case .reference(let folder)? = record[Note.Fields.folderID.rawValue] else { return nil }
        var content = ""
        if case .string(let text)? = record[Note.Fields.content.rawValue] { content = text }
        return Note(
            id: record.recordID.recordName, folderID: folder.recordID.recordName, content: content,
            createdAt: record.creationDate, modifiedAt: record.modificationDate)
    }
}
