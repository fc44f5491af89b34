import RecordStore

/// Every note of the Notes zone, by folder: a materialized view over the log.
public struct NotesView: MaterializedView {
    public static let name = "notes-notes"
    /// The view holds every note's text: replaying the log rebuilds it faster than decoding a
    /// JSON snapshot as large as the notes themselves, and keeps the store half the size.
    public static let keepsSnapshot = false
    /// Folder id → note id → note.
    public private(set) var notesByFolder: [String: [String: Note]] = [:]
    /// Note id → folder id.
    private var folderOfNote: [String: String] = [:]

    public init() {}

    /// Reserves the note → folder table for every live record (notes are most of them).
    public mutating func reserveCapacity(liveRecords: Int) {
        folderOfNote.reserveCapacity(liveRecords)
    }

    public mutating func apply(_ event: ViewEvent) {
        switch event {
        case .saved(let record):
            guard record.recordID.zoneID == NotesRecords.zone, let note = NotesRecords.note(from: record) else { return }
            // One lookup tells whether the note is new, stays in its folder or moves.
            if let previous = folderOfNote.updateValue(note.folderID, forKey: note.id), previous != note.folderID {
                removeFromFolder(note.id, previous)
            }
            notesByFolder[note.folderID, default: [:]][note.id] = note
        case .deleted(let id, let recordType):
            guard id.zoneID == NotesRecords.zone, recordType == NotesRecords.noteType,
                let folderID = folderOfNote.removeValue(forKey: id.recordName)
            else { return }
            removeFromFolder(id.recordName, folderID)
        case .zoneDeleted(let zoneID):
            if zoneID == NotesRecords.zone {
                notesByFolder = [:]
                folderOfNote = [:]
            }
        }
    }

    private mutating func removeFromFolder(_ noteID: String, _ folderID: String) {
        guard var notes = notesByFolder.removeValue(forKey: folderID) else { return }
        notes[noteID] = nil
        if !notes.isEmpty { notesByFolder[folderID] = notes }
    }

    /// The note with this id, if any.
    public func note(_ id: String) -> Note? {
        folderOfNote[id].flatMap { notesByFolder[$0]?[id] }
    }

    /// A folder's notes by modification date (then id), oldest first unless `newestFirst`.
    public func notes(in folderID: String, newestFirst: Bool) -> [Note] {
        let ascending = (notesByFolder[folderID] ?? [:]).values.sorted { lhs, rhs in
            let left = lhs.modifiedAt ?? .distantPast, right = rhs.modifiedAt ?? .distantPast
            return left == right ? lhs.id < rhs.id : left < right
        }
        return newestFirst ? ascending.reversed() : ascending
    }
}
