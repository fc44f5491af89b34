import Foundation
import RecordStore

/// A note is stored through the typed Codable mapping: record type `Note`, fields `content`,
/// `title` (derived, stored for queries such as `.filter(.title, beginsWith: "A")`) and `folder`
/// (a `.deleteSelf` reference: deleting the folder deletes the note in the same commit).
extension Note: RecordCodable {
    public enum Fields: String, CaseIterable, Hashable, CodingKey {
        case id, folderID = "folder", content, title, createdAt, modifiedAt
    }

    public static let recordType = "Note"
    public static let referenceFields: [Fields: Reference.Action] = [.folderID: .deleteSelf]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Fields.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            folderID: try container.decode(String.self, forKey: .folderID),
            content: try container.decodeIfPresent(String.self, forKey: .content) ?? "",
            createdAt: try container.decodeIfPresent(Date.self, forKey: .createdAt),
            modifiedAt: try container.decodeIfPresent(Date.self, forKey: .modifiedAt))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Fields.self)
        try container.encode(id, forKey: .id)
        try container.encode(folderID, forKey: .folderID)
        try container.encode(content, forKey: .content)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(modifiedAt, forKey: .modifiedAt)
    }
}

/// A folder is stored through the typed Codable mapping: record type `Folder`, field `name`.
extension Folder: RecordCodable {
    public enum Fields: String, CaseIterable, Hashable, CodingKey {
        case id, name, createdAt, modifiedAt
    }

    public static let recordType = "Folder"
}
