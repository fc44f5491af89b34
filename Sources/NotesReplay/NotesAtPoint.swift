import LogInspection
import Notes

/// The Notes app's views as they stood at a point.
package struct NotesAtPoint: Sendable, Equatable {
    /// A folder and its notes, oldest first.
    package struct FolderNotes: Sendable, Equatable {
        /// The folder; nil for notes whose folder is not in the Folders view (only possible at a
        /// point inside a commit).
        package var folder: Folder?
        /// The folder's id (its record name).
        package var folderID: String
        /// The folder's notes by modification date, oldest first, as the app lists them.
        package var notes: [Note]
    }

    /// The Folders view.
    package var folders: FoldersView
    /// The Notes view.
    package var notes: NotesView
    /// Where the replay stopped in the Notes zone, and its warnings.
    package var plan: ReplayPlan

    /// The folders by name (then id), each with its notes oldest first, as the app lists them;
    /// then any notes whose folder is missing, by folder id.
    package var listing: [FolderNotes] {
        var groups = folders.sorted.map { FolderNotes(folder: $0, folderID: $0.id, notes: notes.notes(in: $0.id, newestFirst: false)) }
        for folderID in notes.folderIDs where folders.folders[folderID] == nil {
            groups.append(FolderNotes(folder: nil, folderID: folderID, notes: notes.notes(in: folderID, newestFirst: false)))
        }
        return groups
    }
}
