/// How a save treats the server's copy of a record, as CloudKit's `CKModifyRecordsOperation.RecordSavePolicy`.
///
/// Every policy writes the keys it sends onto the server's copy of the record: keys that only the
/// server has (another client added them, or the record was fetched with `desiredKeys`) are kept.
/// The policies differ in whether they compare change tags and in which of the record's keys they
/// send. No policy removes a key the record did not remove: to remove a key, set it to nil
/// (`record["key"] = nil`), which marks it changed.
public enum SavePolicy: Sendable, Hashable {
    /// Save only if the record's change tag matches the server's (the default); send the keys
    /// changed locally. A stale tag, or a new record whose name exists, fails with
    /// `serverRecordChanged` carrying the server's record, the record as sent and their ancestor.
    case ifServerRecordUnchanged
    /// Send the keys changed locally, whatever the server's change tag.
    case changedKeys
    /// Send every key the record has (and the keys it removed), whatever the server's change tag;
    /// the record's type too, which the other policies refuse to change.
    case allKeys
}
