/// What a `NotesManager` refuses, with a message that says what to do.
public enum NotesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No folder has this identifier.
    case folderNotFound(id: String)
    /// No note has this identifier.
    case noteNotFound(id: String)
    /// A folder name that is empty or only white space.
    case invalidFolderName(String)

    public var description: String {
        switch self {
        case .folderNotFound(let id): "No folder has the id \(id); list the folders to find it."
        case .noteNotFound(let id): "No note has the id \(id); list the notes of its folder to find it."
        case .invalidFolderName(let name): "The folder name \(name.debugDescription) is empty; give the folder a name."
        }
    }
}
