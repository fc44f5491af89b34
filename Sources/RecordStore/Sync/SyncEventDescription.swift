import RecordLog

extension EventDescription {
    /// What a sync system record's event means (FORMAT.md §10.3), in words, for tools; nil for
    /// every other event. `pending save of n1 (text, title)`, `pending delete of n1`,
    /// `acknowledged n1`, `zone sync state: token saved`, `database sync state: token saved`.
    static func syncMeaning(key: String?, isTombstone: Bool, record: Record?) -> String? {
        guard let key, SyncRecords.isSystemName(key) else { return nil }
        switch key {
        case SyncRecords.zoneStateName:
            guard let record else { return "zone sync state removed" }
            var words = [record["token"] == nil ? "no token yet" : "token saved"]
            if record["adopting"] == .bool(true) { words.append("marking existing records pending") }
            if record["reconciling"] == .bool(true) { words.append("refetching after an expired token") }
            return "zone sync state: " + words.joined(separator: ", ")
        case SyncRecords.databaseStateName:
            return record == nil ? "database sync state removed" : "database sync state: token saved"
        default:
            if isTombstone { return "acknowledged " + (SyncRecords.recordName(ofPending: key) ?? key) }
            guard let record, let change = PendingChange(record) else { return nil }
            if change.isDelete { return "pending delete of \(change.recordName)" }
            return "pending save of \(change.recordName)" + (change.changedKeys.isEmpty ? "" : " (\(change.changedKeys.joined(separator: ", ")))")
        }
    }
}

extension SyncRecords {
    /// The record name a pending-change record's name holds, when it holds it (not hashed).
    static func recordName(ofPending name: String) -> String? {
        let prefix = "_sync.p."
        return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : nil
    }
}
