import RecordLog

/// A zone's query metadata: the record types ever saved in it (a query for a type never saved
/// fails with `unknownItem`), and the declared indexes, built from the zone's live records and
/// kept current by `ZoneState.applySave` / `applyDelete`.
struct ZoneIndexes: Sendable {
    /// Whether the declared indexes were read from the system log and built for this zone; until
    /// then the zone maintains none (the query engine loads them before it first reads the zone).
    var isLoaded = false
    private(set) var knownTypes: Set<String> = []
    /// Record type → key → index.
    private(set) var indexes: [String: [String: FieldIndex]] = [:]
    /// Reads back saved records when `didSave` is not given them; keeps the last batch decoded,
    /// as the saves of one commit are applied in a row.
    private var fallbackReader: SavedRecordReader?

    /// The index of `key` for `recordType`, if declared and built.
    func index(recordType: String, key: String) -> FieldIndex? {
        indexes[recordType]?[key]
    }

    /// Whether `(recordType, key)` has an index here.
    func contains(_ declaration: IndexDeclaration) -> Bool {
        indexes[declaration.recordType]?[declaration.key] != nil
    }

    /// Remembers a record type saved in the zone (restored from a checkpoint: its records may be gone).
    mutating func noteKnownType(_ recordType: String) {
        knownTypes.insert(recordType)
    }

    /// Installs a built index.
    mutating func install(_ index: FieldIndex, recordType: String) {
        indexes[recordType, default: [:]][index.key] = index
    }

    /// Keeps the indexes current after a save. `record` is the saved record when the caller has
    /// it; otherwise it is read from `partition`, and if that fails the record type's indexes are
    /// dropped (queries then scan, and stay correct) and the zone reloads them on its next query.
    mutating func didSave(name: String, entry: RecordEntry, previousType: String?, record: Record?, partition: Partition, zoneID: ZoneID) {
        knownTypes.insert(entry.recordType)
        if let previousType, previousType != entry.recordType { didDelete(name: name, recordType: previousType) }
        guard var byKey = indexes[entry.recordType] else { return }
        guard let saved = record ?? readBack(name, at: entry.offset, partition: partition, zoneID: zoneID) else {
            indexes[entry.recordType] = nil
            isLoaded = false
            return
        }
        indexes[entry.recordType] = nil  // unique storage: the indexes change in place
        for key in Array(byKey.keys) { byKey[key]?.insert(name: name, record: saved) }
        indexes[entry.recordType] = byKey
    }

    private mutating func readBack(_ name: String, at offset: Int64, partition: Partition, zoneID: ZoneID) -> Record? {
        var reader = fallbackReader ?? SavedRecordReader(partition: partition, zoneID: zoneID, cacheLimit: 0)
        fallbackReader = nil
        defer { fallbackReader = reader }
        return try? reader.record(named: name, at: offset)
    }

    /// Keeps the indexes current after a delete.
    mutating func didDelete(name: String, recordType: String) {
        guard var byKey = indexes[recordType] else { return }
        indexes[recordType] = nil
        for key in Array(byKey.keys) { byKey[key]?.remove(name: name) }
        indexes[recordType] = byKey
    }
}

/// A declared index: a key of a record type, in every zone.
struct IndexDeclaration: Sendable, Hashable {
    var recordType: String
    var key: String
}
