import LogInspection
import Notes

extension NotesAtPoint {
    /// A JSON array of folders by name: `{id, name, createdAt, modifiedAt, notes}`, each note
    /// `{id, folderID, title, content, createdAt, modifiedAt}`, oldest first (dates ISO 8601 with
    /// milliseconds). A group of notes whose folder is missing has a null `name`.
    package var json: String {
        JSONValue.array(listing.map { group in
            .object([
                ("id", .string(group.folderID)),
                ("name", .optional(group.folder?.name)),
                ("createdAt", ReplayDate.json(group.folder?.createdAt)),
                ("modifiedAt", ReplayDate.json(group.folder?.modifiedAt)),
                ("notes", .array(group.notes.map(Self.json))),
            ])
        }).pretty()
    }

    /// Each folder (`name — n notes  id`), then its notes (`modified  id  title`), oldest first.
    package var text: String {
        guard !listing.isEmpty else { return "no folders" }
        return listing.flatMap { group in
            let count = "\(group.notes.count) note\(group.notes.count == 1 ? "" : "s")"
            let head = "\(group.folder?.name ?? "(missing folder)") — \(count)  \(group.folderID)"
            return [head] + group.notes.map { note in
                "    \(note.modifiedAt.map(ReplayDate.iso8601) ?? "-")  \(note.id)  \(note.title)"
            }
        }.joined(separator: "\n")
    }

    private static func json(_ note: Note) -> JSONValue {
        .object([
            ("id", .string(note.id)),
            ("folderID", .string(note.folderID)),
            ("title", .string(note.title)),
            ("content", .string(note.content)),
            ("createdAt", ReplayDate.json(note.createdAt)),
            ("modifiedAt", ReplayDate.json(note.modifiedAt)),
        ])
    }
}
