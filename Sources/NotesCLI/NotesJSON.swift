import Foundation
import Notes

/// The command line's JSON: sorted keys, ISO 8601 dates.
enum NotesJSON {
    static func encode<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A folder as `notes folders --json` prints it.
package struct FolderJSON: Codable, Equatable, Sendable {
    package var id: String
    package var name: String
    package var createdAt: Date?
    package var modifiedAt: Date?

    init(_ folder: Folder) {
        id = folder.id
        name = folder.name
        createdAt = folder.createdAt
        modifiedAt = folder.modifiedAt
    }
}

/// A note as `notes list --json` prints it.
package struct NoteJSON: Codable, Equatable, Sendable {
    package var id: String
    package var folderID: String
    package var title: String
    package var content: String
    package var createdAt: Date?
    package var modifiedAt: Date?

    init(_ note: Note) {
        id = note.id
        folderID = note.folderID
        title = note.title
        content = note.content
        createdAt = note.createdAt
        modifiedAt = note.modifiedAt
    }
}
