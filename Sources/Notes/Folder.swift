import Foundation

/// A folder of notes.
public struct Folder: Sendable, Hashable, Identifiable, Codable {
    /// The folder's identifier: its record name in the store.
    public var id: String
    public var name: String
    /// When the folder was first saved; nil before.
    public var createdAt: Date?
    /// When the folder was last saved; nil before.
    public var modifiedAt: Date?

    public init(id: String = UUID().uuidString, name: String, createdAt: Date? = nil, modifiedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
    }

    /// The name of the folder `createDefaultFolder()` makes.
    public static let defaultName = "My Notes"
    /// The identifier of the default folder, the same in every store, so that creating it is idempotent.
    public static let defaultID = "default-folder"
}
