import StorageKit

/// The outcome of `Database.modifyRecords`, one result per item asked for.
public struct ModifyResult: Sendable {
    /// For each record to save: the saved record, with the server's dates and change tag, or why not.
    public var saveResults: [RecordID: Result<Record, RecordStoreError>] {
        get { unfiled?.filed(over: filedSaves) ?? filedSaves }
        set {
            filedSaves = newValue
            unfiled = nil
        }
        // In place, as a stored property's: `result.saveResults[id] = …` must not copy the
        // dictionary for each item.
        _modify {
            if let unfiled {
                filedSaves = unfiled.filed(over: filedSaves)
                self.unfiled = nil
            }
            yield &filedSaves
        }
    }
    /// For each record to delete: success, or why not.
    public var deleteResults: [RecordID: Result<Void, RecordStoreError>]

    /// The save results filed one by one.
    private var filedSaves: [RecordID: Result<Record, RecordStoreError>]
    /// A large commit's saved records, filed into ``saveResults`` when it is first read
    /// (`CommitTuning.lazySaveResultsItems`).
    private var unfiled: UnfiledSaves?

    /// Results, as `modifyRecords` returns them (for fakes in an app's tests).
    public init(saveResults: [RecordID: Result<Record, RecordStoreError>] = [:], deleteResults: [RecordID: Result<Void, RecordStoreError>] = [:]) {
        self.filedSaves = saveResults
        self.deleteResults = deleteResults
    }

    /// Files each of `saves` as saved when ``saveResults`` is first read: the commit keeps the
    /// plan's array (one reference) instead of hashing every record's ID into the dictionary.
    mutating func fileSavedLater(_ saves: [ZonePlan.Save]) {
        guard !saves.isEmpty else { return }
        unfiled = UnfiledSaves(chunks: (unfiled?.chunks ?? []) + [saves])
    }
}

/// Saved records a ``ModifyResult`` files into its dictionary when it is first read, once: the
/// dictionary is kept for the reads after it. Every copy of a result that holds it has the same
/// filed results (setting ``ModifyResult/saveResults`` drops it), so one cache serves them all.
private final class UnfiledSaves: Sendable {
    let chunks: [[ZonePlan.Save]]
    private let cache = LockedValue<[RecordID: Result<Record, RecordStoreError>]?>(nil)

    init(chunks: [[ZonePlan.Save]]) {
        self.chunks = chunks
    }

    func filed(over filed: [RecordID: Result<Record, RecordStoreError>]) -> [RecordID: Result<Record, RecordStoreError>] {
        cache.withLock { cache in
            if let cache { return cache }
            var all = filed
            all.reserveCapacity(filed.count + chunks.reduce(0) { $0 + $1.count })
            for chunk in chunks {
                for save in chunk { all[save.record.recordID] = .success(save.record) }
            }
            cache = all
            return all
        }
    }
}
