import Foundation
import Notes

/// The notes command line's logic, callable in-process: each command returns the text to print
/// and throws `NotesAppError` for what the user got wrong, before anything is written.
package struct NotesApp: Sendable {
    package let manager: any NotesManager

    package init(manager: any NotesManager) {
        self.manager = manager
    }

    /// Every folder, by name: a line each, or a JSON array of `{id, name, createdAt, modifiedAt}`.
    package func folders(json: Bool) async throws -> String {
        let folders = try await manager.fetchFolders()
        if json { return try NotesJSON.encode(folders.map(FolderJSON.init)) }
        var lines: [String] = []
        for folder in folders {
            let count = try await manager.fetchNotes(in: folder).count
            lines.append("\(folder.name)\t\(count) note\(count == 1 ? "" : "s")\t\(folder.id)")
        }
        return lines.joined(separator: "\n")
    }

    /// Creates a folder; returns its id.
    package func addFolder(name: String) async throws -> String {
        try await manager.save(manager.newFolder(name: name)).id
    }

    /// Deletes the folder named `name` and its notes.
    ///
    /// - Throws: `NotesAppError.noSuchFolder`, or `.ambiguousFolder` when several have that name.
    package func deleteFolder(name: String) async throws -> String {
        let folder = try await folder(named: name)
        let count = try await manager.fetchNotes(in: folder).count
        try await manager.delete(folder)
        return "deleted folder \(folder.name) and its \(count) note\(count == 1 ? "" : "s")"
    }

    /// Adds a note to the folder named `folderName` ("My Notes", created when missing, by
    /// default); returns the new note's id as the last line.
    package func add(text: String, folderName: String?) async throws -> String {
        let folder: Folder
        if let folderName { folder = try await self.folder(named: folderName) } else { folder = try await manager.createDefaultFolder() }
        var note = manager.newNote(in: folder)
        note.content = text
        let saved = try await manager.save(note)
        return "added \(saved.title.debugDescription) to \(folder.name)\n\(saved.id)"
    }

    /// Replaces a note's text; finds the note by its id alone (`NotesManager.fetchNote(id:)`).
    ///
    /// - Throws: `NotesAppError.noSuchNote`.
    package func edit(id: String, text: String) async throws -> String {
        var note = try await note(id: id)
        note.content = text
        let saved = try await manager.save(note)
        return "edited \(saved.id): \(saved.title)"
    }

    /// Deletes a note.
    ///
    /// - Throws: `NotesAppError.noSuchNote`.
    package func delete(id: String) async throws -> String {
        let note = try await note(id: id)
        try await manager.delete(note)
        return "deleted \(note.id)"
    }

    /// The notes of one folder, or of every folder, oldest (least recently modified) first
    /// overall: a line each (id, folder name, title), or a JSON array of
    /// `{id, folderID, title, content, createdAt, modifiedAt}`.
    ///
    /// Every folder is read, then each one's notes: a writer process that deletes a folder in
    /// between makes the folder's read fail, and the listing starts over (up to
    /// ``listAttempts`` times), so that it shows one state of the store or the next, never a
    /// failure.
    package func list(folderName: String?, json: Bool) async throws -> String {
        var attempt = 1
        while true {
            do {
                return try await listOnce(folderName: folderName, json: json)
            } catch NotesError.folderNotFound where folderName == nil && attempt < Self.listAttempts {
                attempt += 1
            }
        }
    }

    /// How many times ``list(folderName:json:)`` starts over after a folder vanished under it.
    static let listAttempts = 8

    private func listOnce(folderName: String?, json: Bool) async throws -> String {
        let folders: [Folder]
        if let folderName { folders = [try await folder(named: folderName)] } else { folders = try await manager.fetchFolders() }
        var notes: [Note] = []
        for folder in folders { notes += try await manager.fetchNotes(in: folder) }
        if folders.count > 1 {
            // Each folder's notes come oldest first; merged, by the same order across folders.
            notes.sort { ($0.modifiedAt ?? .distantPast, $0.id) < ($1.modifiedAt ?? .distantPast, $1.id) }
        }
        if json { return try NotesJSON.encode(notes.map(NoteJSON.init)) }
        let names = Dictionary(folders.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        return notes.map { note in
            "\(note.id)\t\(names[note.folderID] ?? "")\t\(note.title)"
        }.joined(separator: "\n")
    }

    private func folder(named name: String) async throws -> Folder {
        let matches = try await manager.fetchFolders().filter { $0.name == name }
        guard let folder = matches.first else { throw NotesAppError.noSuchFolder(name) }
        guard matches.count == 1 else { throw NotesAppError.ambiguousFolder(name, ids: matches.map(\.id)) }
        return folder
    }

    private func note(id: String) async throws -> Note {
        do {
            return try await manager.fetchNote(id: id)
        } catch NotesError.noteNotFound {
            throw NotesAppError.noSuchNote(id)
        }
    }
}
