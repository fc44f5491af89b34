import RecordStore

/// Every note of the Notes zone, by folder: a materialized view over the log.
///
/// Its snapshot is mapped (``MappedSnapshotView``): a store opens without reading the notes, and
/// reads a folder's notes from the file when it is first listed.
public struct NotesView: MappedSnapshotView, ReplayHintedView {
    public static let name = "notes-notes"
    /// The notes, by id and by folder.
    private var storage = NoteSlots()

    private enum CodingKeys: String, CodingKey {
        case notes
    }

    public init() {}

    /// Whether both views hold the same notes.
    public static func == (lhs: NotesView, rhs: NotesView) -> Bool {
        lhs.storage.count == rhs.storage.count && lhs.storage.allNotes.allSatisfy { rhs.storage.note($0.id) == $0 }
    }

    /// Writes the notes as the sections of the view's mapped snapshot.
    package func writeSnapshot(to writer: inout ViewSnapshotWriter) throws {
        try storage.writeSnapshot(to: &writer)
    }

    /// The notes of a mapped snapshot, read in place.
    package init?(snapshot: MappedViewSnapshot) {
        guard let storage = NoteSlots(snapshot: snapshot) else { return nil }
        self.storage = storage
    }

    /// Reads the notes a view encoded (`encode(to:)`).
    public init(from decoder: any Decoder) throws {
        let notes = try decoder.container(keyedBy: CodingKeys.self).decode([Note].self, forKey: .notes)
        storage.reserveCapacity(notes.count)
        for note in notes { storage.save(note) }
    }

    /// Encodes the notes by id.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storage.allNotes.sorted { $0.id < $1.id }, forKey: .notes)
    }

    /// Reserves the tables for every note, and each folder's order for the average number of
    /// notes per folder, so that a replay never grows them.
    public mutating func willReplay(liveRecordsByType: [String: Int]) {
        let notes = liveRecordsByType[NotesRecords.noteType] ?? 0
        storage.reserveCapacity(notes)
        storage.folderCapacity = notes / max(1, liveRecordsByType[NotesRecords.folderType] ?? 0)
    }

    /// Ends the replay: folders created later start small.
    public mutating func didReplay() {
        storage.folderCapacity = 0
    }

    public mutating func apply(_ event: ViewEvent) {
        switch event {
        case .saved(let record):
            save(record)
        case .deleted(let id, let recordType):
            guard id.zoneID == NotesRecords.zone, recordType == NotesRecords.noteType else { return }
            storage.remove(id.recordName)
        case .zoneDeleted(let zoneID):
            if zoneID == NotesRecords.zone {
                storage = NoteSlots()
            }
        }
    }

    /// Reads only the note's `folder` and `content` fields of the record, in place; folds as
    /// `apply(.saved(record.materialized()))` does.
    public mutating func apply(saved record: StoredRecord) {
        save(record)
    }

    /// Starts loading the id table's bucket of a note about to be replayed.
    public func prefetch(forSaved recordID: RecordID) {
        guard recordID.zoneID == NotesRecords.zone else { return }
        storage.prefetch(id: recordID.recordName)
    }

    /// Files a saved record as ``NotesRecords/note(from:)`` maps it, without building the `Note`:
    /// the id, folder and content bytes go straight into the view (from the log's bytes, as the
    /// database folds every save; from a record's strings when one is applied as `.saved`).
    private mutating func save(_ record: some NotesRecordSource) {
        guard record.recordID.zoneID == NotesRecords.zone, record.hasRecordType(NotesRecords.noteType) else { return }
        var id = record.recordID.recordName
        id.withUTF8 { id in
            record.withReferenceNameUTF8(Note.Fields.folderID.rawValue) { folder in
                guard let folder else { return }
                record.withStringUTF8(Note.Fields.content.rawValue) { content in
                    storage.save(
                        id: id, folderID: folder, content: content ?? UnsafeBufferPointer(start: nil, count: 0),
                        createdAt: record.creationDate, modifiedAt: record.modificationDate)
                }
            }
        }
    }

    /// How many notes the view holds.
    public var count: Int { storage.count }

    /// The ids of the folders that hold notes, ascending (including folders that no longer exist,
    /// whose notes remain until their deletion reaches them).
    public var folderIDs: [String] { storage.folderIDs }

    /// The note with this id, if any.
    public func note(_ id: String) -> Note? {
        storage.note(id)
    }

    /// A folder's notes by modification date (then id), oldest first unless `newestFirst`.
    ///
    /// The view keeps each folder in this order, so listing copies the notes without sorting.
    public func notes(in folderID: String, newestFirst: Bool) -> [Note] {
        storage.notes(in: folderID, newestFirst: newestFirst)
    }

    /// A folder's notes as ``notes(in:newestFirst:)`` lists them, the second half of them built
    /// on a second thread from `twoThreadsFrom` notes on (`CommitTuning.twoThreadReadItems`).
    package func notes(in folderID: String, newestFirst: Bool, twoThreadsFrom: Int) -> [Note] {
        storage.notes(in: folderID, newestFirst: newestFirst, twoThreadsFrom: twoThreadsFrom)
    }
}
