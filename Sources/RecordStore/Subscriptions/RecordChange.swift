/// One record change of a commit, as subscriptions see it.
public enum RecordChange: Sendable, Hashable {
    /// A record saved; `created` when it did not exist before.
    case saved(Record, created: Bool)
    /// A record deleted (asked for or by cascade).
    case deleted(RecordID, recordType: String)

    public var recordID: RecordID {
        switch self {
        case .saved(let record, _): record.recordID
        case .deleted(let id, _): id
        }
    }
}
