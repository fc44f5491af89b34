import RecordStore

/// Every folder of the Notes zone by id: a materialized view over the log.
public struct FoldersView: MaterializedView {
    public static let name = "notes-folders"
    public private(set) var folders: [String: Folder] = [:]

    public init() {}

    public mutating func apply(_ event: ViewEvent) {
        switch event {
        case .saved(let record):
            save(record)
        case .deleted(let id, let recordType):
            guard id.zoneID == NotesRecords.zone, recordType == NotesRecords.folderType else { return }
            folders[id.recordName] = nil
        case .zoneDeleted(let zoneID):
            if zoneID == NotesRecords.zone { folders = [:] }
        }
    }

    /// Reads only the folder's `name` field of the record, in place; folds as
    /// `apply(.saved(record.materialized()))` does.
    public mutating func apply(saved record: StoredRecord) {
        save(record)
    }

    private mutating func save(_ record: some NotesRecordSource) {
        guard record.recordID.zoneID == NotesRecords.zone, let folder = NotesRecords.folder(from: record) else { return }
        folders[folder.id] = folder
    }

    /// The folders ordered by name, then id.
    public var sorted: [Folder] {
        folders.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }
}
