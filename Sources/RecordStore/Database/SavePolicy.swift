/// How a save treats the server's copy of a record, as CloudKit's `CKModifyRecordsOperation.RecordSavePolicy`.
public enum SavePolicy: Sendable, Hashable {
    /// Save only if the record's change tag matches the server's (the default). A stale tag, or a
    /// new record whose name exists, fails with `serverRecordChanged` carrying the server's record.
    case ifServerRecordUnchanged
    /// Write only the keys changed locally onto the server's copy, whatever its change tag.
    case changedKeys
    /// Replace the server's copy with this record, whatever its change tag.
    case allKeys
}

/// The outcome of `Database.modifyRecords`, one result per item asked for.
public struct ModifyResult: Sendable {
    /// For each record to save: the saved record, with the server's dates and change tag, or why not.
    public var saveResults: [RecordID: Result<Record, RecordStoreError>]
    /// For each record to delete: success, or why not.
    public var deleteResults: [RecordID: Result<Void, RecordStoreError>]
}
