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
    /// During a replay, the room a new folder's table starts with: the notes per folder on
    /// average. Not part of the view's value (equality, coding).
    private var replayFolderCapacity = 0

    private enum CodingKeys: String, CodingKey {
        case notesByFolder, folderOfNote
    }

    public init() {}

    /// Whether both views hold the same notes in the same folders.
    public static func == (lhs: NotesView, rhs: NotesView) -> Bool {
        lhs.notesByFolder == rhs.notesByFolder && lhs.folderOfNote == rhs.folderOfNote
    }

    /// Reserves the note → folder table for every note, and each folder's table for the
    /// average number of notes per folder, so that a replay never grows them.
    public mutating func willReplay(liveRecordsByType: [String: Int]) {
        let notes = liveRecordsByType[NotesRecords.noteType] ?? 0
        folderOfNote.reserveCapacity(notes)
        replayFolderCapacity = notes / max(1, liveRecordsByType[NotesRecords.folderType] ?? 0)
    }

    /// Ends the replay: folders created later start small.
    public mutating func didReplay() {
        replayFolderCapacity = 0
    }

    public mutating func apply(_ event: ViewEvent) {
        switch event {
        case .saved(let record):
            save(record)
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

    /// Reads only the note's `folder` and `content` fields of the record, in place; folds as
    /// `apply(.saved(record.materialized()))` does.
    public mutating func apply(saved record: StoredRecord) {
        save(record)
    }

    private mutating func save(_ record: some NotesRecordSource) {
        guard record.recordID.zoneID == NotesRecords.zone, let note = NotesRecords.note(from: record) else { return }
        // One lookup tells whether the note is new, stays in its folder or moves.
        if let previous = folderOfNote.updateValue(note.folderID, forKey: note.id), previous != note.folderID {
            removeFromFolder(note.id, previous)
        }
        notesByFolder[note.folderID, default: Dictionary(minimumCapacity: replayFolderCapacity)][note.id] = note
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
