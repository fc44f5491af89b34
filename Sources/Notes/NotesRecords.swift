import Foundation
import RecordStore

/// Where and how folders and notes are stored: records of the store's "Notes" zone, mapped by
/// their `RecordCodable` conformances (Note+Record.swift).
enum NotesRecords {
    static let zone = ZoneID(zoneName: "Notes")
    static let folderType = Folder.recordType
    static let noteType = Note.recordType

    static func record(for folder: Folder) throws -> Record {
        try folder.encodedRecord(in: zone)
    }

    static func record(for note: Note) throws -> Record {
        try note.encodedRecord(in: zone)
    }

    static func folder(from record: Record) -> Folder? {
        guard record.recordType == folderType else { return nil }
        return try? Folder(decoding: record)
    }

    static func note(from record: Record) -> Note? {
        guard record.recordType == noteType else { return nil }
        return try? Note(decoding: record)
    }
}
