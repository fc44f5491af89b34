import Foundation
import RecordStore

/// How folders and notes are stored as records in the store's "Notes" zone.
///
/// - Folder: record type `Folder`, record name = folder id, field `name` (string).
/// - Note: record type `Note`, record name = note id, fields `content` (string), `title`
///   (string, derived, for queries) and `folder` (a `.deleteSelf` reference to its folder, so
///   deleting a folder deletes its notes in the same commit).
enum NotesRecords {
    static let zone = ZoneID(zoneName: "Notes")
    static let folderType = "Folder"
    static let noteType = "Note"

    static func record(for folder: Folder) -> Record {
        var record = Record(recordType: folderType, recordID: RecordID(recordName: folder.id, zoneID: zone))
        record["name"] = .string(folder.name)
        return record
    }

    static func record(for note: Note) -> Record {
        var record = Record(recordType: noteType, recordID: RecordID(recordName: note.id, zoneID: zone))
        record["content"] = .string(note.content)
        record["title"] = .string(note.title)
        record["folder"] = .reference(Reference(recordID: RecordID(recordName: note.folderID, zoneID: zone), action: .deleteSelf))
        return record
    }

    static func folder(from record: Record) -> Folder? {
        guard record.recordType == folderType, case .string(let name)? = record["name"] else { return nil }
        return Folder(id: record.recordID.recordName, name: name, createdAt: record.creationDate, modifiedAt: record.modificationDate)
    }

    static func note(from record: Record) -> Note? {
        guard record.recordType == noteType, case .reference(let folder)? = record["folder"] else { return nil }
        var content = ""
        if case .string(let text)? = record["content"] { content = text }
        return Note(
            id: record.recordID.recordName, folderID: folder.recordID.recordName, content: content,
            createdAt: record.creationDate, modifiedAt: record.modificationDate)
    }
}
