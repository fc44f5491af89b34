/// What the notes command refuses.
package enum NotesAppError: Error, Equatable, CustomStringConvertible {
    /// No folder has this name.
    case noSuchFolder(String)
    /// Several folders have this name; `ids` are theirs.
    case ambiguousFolder(String, ids: [String])
    /// No note has this id.
    case noSuchNote(String)
    /// The notes are not kept in a store (an in-memory manager): there is nothing to sync.
    case notSyncable

    package var description: String {
        switch self {
        case .noSuchFolder(let name): "no folder is named \(name.debugDescription); see `notes folders`"
        case .ambiguousFolder(let name, let ids): "several folders are named \(name.debugDescription) (\(ids.joined(separator: ", "))); rename one"
        case .noSuchNote(let id): "no note has the id \(id); see `notes list`"
        case .notSyncable: "these notes are not kept in a store, so there is nothing to sync"
        }
    }
}
