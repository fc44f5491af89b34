import Foundation

/// A record's change made on this device and not yet acknowledged by the remote: the outbox
/// entry a ``SyncEngine`` sends. Kept as a system record (``SyncRecords``) in the record's zone,
/// written in the same commit as the change itself, so no crash can separate an edit from its
/// entry. Successive changes fold into one: saves A, B, A are two entries; save then delete is a
/// delete; delete then save is a save of every key.
package struct PendingChange: Sendable, Hashable {
    /// The record the change is about.
    package var recordName: String
    /// Whether the record was deleted (else saved).
    package var isDelete: Bool
    /// For a save: every key changed since the record was last in step with the remote (set or
    /// removed), sorted — what the engine sends.
    package var changedKeys: [String]

    package init(recordName: String, isDelete: Bool, changedKeys: [String]) {
        self.recordName = recordName
        self.isDelete = isDelete
        self.changedKeys = changedKeys
    }

    private enum Field {
        static let recordName = "recordName"
        static let operation = "operation"
        static let changedKeys = "changedKeys"
    }

    /// The system record holding this change, in `zoneID`.
    package func record(in zoneID: ZoneID) -> Record {
        var record = Record(
            recordType: SyncRecords.pendingType, recordID: RecordID(recordName: SyncRecords.pendingName(for: recordName), zoneID: zoneID))
        record[Field.recordName] = .string(recordName)
        record[Field.operation] = .string(isDelete ? "delete" : "save")
        if !changedKeys.isEmpty { record[Field.changedKeys] = .list(changedKeys.map(FieldValue.string)) }
        return record
    }

    /// The change a pending-change record holds; nil for a record that is not one.
    package init?(_ record: Record) {
        guard record.recordType == SyncRecords.pendingType, case .string(let name)? = record[Field.recordName],
            case .string(let operation)? = record[Field.operation], operation == "save" || operation == "delete"
        else { return nil }
        var keys: [String] = []
        if case .list(let values)? = record[Field.changedKeys] {
            for case .string(let key) in values { keys.append(key) }
        }
        self.init(recordName: name, isDelete: operation == "delete", changedKeys: keys)
    }

    /// This change followed by a save that changed `keys` of a record whose keys are now `allKeys`.
    package func followed(bySavingKeys keys: [String], allKeys: [String]) -> PendingChange {
        // After a delete, the remote may still hold the old record: every key is sent.
        let added = isDelete ? Set(allKeys).union(keys) : Set(changedKeys).union(keys)
        return PendingChange(recordName: recordName, isDelete: false, changedKeys: added.sorted())
    }
}
