import Foundation

/// A note: text in a folder. Its title is derived from its content.
public struct Note: Sendable, Hashable, Identifiable, Codable {
    /// The note's identifier: its record name in the store.
    public var id: String
    /// The identifier of the note's folder.
    public var folderID: String
    public var content: String
    /// When the note was first saved; nil before.
    public var createdAt: Date?
    /// When the note was last saved; nil before.
    public var modifiedAt: Date?

    public init(id: String = UUID().uuidString, folderID: String, content: String = "", createdAt: Date? = nil, modifiedAt: Date? = nil) {
        self.id = id
        self.folderID = folderID
        self.content = content
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }

    /// The title shown in lists (see `NoteTitle`).
    public var title: String { NoteTitle.make(from: content) }
}
