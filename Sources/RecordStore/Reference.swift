/// A link from one record to another record of the same zone, CloudKit's `CKRecord.Reference`.
///
/// ```swift
/// note["folder"] = .reference(Reference(recordID: folder.recordID, action: .deleteSelf))
/// ```
public struct Reference: Sendable, Hashable, Codable {
    /// What happens to the referring record when the target is deleted.
    public enum Action: UInt8, Sendable, Hashable, Codable, CaseIterable {
        /// Nothing: the reference dangles.
        case none = 0
        /// The referring record is deleted with its target (transitively, in the same commit).
        case deleteSelf = 1
    }

    /// The record referred to; it must be in the referring record's zone.
    public var recordID: RecordID
    /// What deleting the target does to the referring record.
    public var action: Action

    /// Creates a reference to the record with `recordID`.
    public init(recordID: RecordID, action: Action = .none) {
        self.recordID = recordID
        self.action = action
    }

    /// Creates a reference to `record`.
    public init(record: Record, action: Action = .none) {
        self.init(recordID: record.recordID, action: action)
    }
}
