import RecordLog

/// A zone's declared indexes, built from the zone's live records and kept current by
/// `ZoneState.applySave` / `applyDelete`.
struct ZoneIndexes: Sendable {
    /// Whether the declared indexes were read from the system log and built for this zone; until
    /// then the zone maintains none (the query engine loads them before it first reads the zone).
    var isLoaded = false
    /// Record type → key → index.
    private(set) var indexes: [String: [String: FieldIndex]] = [:]

    /// The index of `key` for `recordType`, if declared and built.
    func index(recordType: String, key: String) -> FieldIndex? {
        indexes[recordType]?[key]
    }

    /// Whether `(recordType, key)` has an index here.
    func contains(_ declaration: IndexDeclaration) -> Bool {
        indexes[declaration.recordType]?[declaration.key] != nil
    }

    /// Installs a built index.
    mutating func install(_ index: FieldIndex, recordType: String) {
        indexes[recordType, default: [:]][index.key] = index
    }

    /// Keeps the indexes current after a save of `record`, which was of `previousType` if it existed.
    mutating func didSave(name: String, recordType: String, previousType: String?, record: Record) {
        guard !indexes.isEmpty else { return }
        if let previousType, previousType != recordType { didDelete(name: name, recordType: previousType) }
        guard var byKey = indexes[recordType] else { return }
        indexes[recordType] = nil  // unique storage: the indexes change in place
        for key in Array(byKey.keys) { byKey[key]?.insert(name: name, record: record) }
        indexes[recordType] = byKey
    }

    /// Keeps the indexes current after a delete.
    mutating func didDelete(name: String, recordType: String) {
        guard !indexes.isEmpty, var byKey = indexes[recordType] else { return }
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
