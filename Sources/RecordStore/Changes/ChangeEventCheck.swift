import RecordLog

/// What a change fetch checks of each event it hands out, run once per batch the log's cache
/// keeps (``CachedRecordCheck``): that a save's value is one a ``StoredRecord`` accepts for the
/// record named by the event's key. A batch read again from the cache is not checked again.
///
/// Events that a fetch never reads a value of pass: deletions (whose record type is read as a
/// string, checked as it is built), saves without a key or value (reported as nothing), and the
/// other kinds.
enum ChangeEventCheck: CachedRecordCheck {
    static func passes(_ record: BorrowedLogRecord) -> Bool {
        guard StoredEvent.kind(of: record) == .save, let name = record.key, let value = record.value else { return true }
        return StoredRecord.accepts(value, recordName: name)
    }
}
