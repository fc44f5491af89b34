import Foundation
import RecordLog

/// One zone's live records, kept in memory and rebuilt by replaying the zone's partition.
struct ZoneState: Sendable {
    let zoneID: ZoneID
    let partition: Partition
    /// The offset of the zone's creation event in the system partition: tells apart two zones of
    /// the same name, one deleted and one created later, so an old token cannot be used on the new.
    let incarnation: Int64
    private(set) var records: [String: RecordEntry] = [:]
    private(set) var namesByType: [String: Set<String>] = [:]
    /// Target record name → names of the records that reference it with `.deleteSelf`.
    private(set) var referrers: [String: Set<String>] = [:]
    /// The query engine's record types and field indexes (Query/ZoneIndexes.swift).
    var indexes = ZoneIndexes()

    init(zoneID: ZoneID, partition: Partition, incarnation: Int64) {
        self.zoneID = zoneID
        self.partition = partition
        self.incarnation = incarnation
    }

    /// Records a save. Pass the saved `record` when at hand: the field indexes need its values,
    /// and without it they read it back from the log.
    mutating func applySave(name: String, entry: RecordEntry, record: Record? = nil) {
        let old = records[name]
        if let old { unlink(name: name, entry: old) }
        records[name] = entry
        namesByType[entry.recordType, default: []].insert(name)
        for target in entry.cascadeTargets { referrers[target, default: []].insert(name) }
        indexes.didSave(name: name, entry: entry, previousType: old?.recordType, record: record, partition: partition, zoneID: zoneID)
    }

    mutating func applyDelete(name: String) {
        guard let old = records.removeValue(forKey: name) else { return }
        unlink(name: name, entry: old)
        indexes.didDelete(name: name, recordType: old.recordType)
    }

    private mutating func unlink(name: String, entry: RecordEntry) {
        namesByType[entry.recordType]?.remove(name)
        if namesByType[entry.recordType]?.isEmpty == true { namesByType[entry.recordType] = nil }
        for target in entry.cascadeTargets {
            referrers[target]?.remove(name)
            if referrers[target]?.isEmpty == true { referrers[target] = nil }
        }
    }

    /// Applies one event read from the zone's partition (replay).
    mutating func apply(_ event: BorrowedLogRecord) throws {
        guard let name = event.keyString else { return }
        switch StoredEvent.kind(of: event) {
        case .save?:
            guard let value = event.value else { return }
            let record = try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: zoneID))
            applySave(name: name, entry: RecordEntry(record: record, offset: event.offset), record: record)
        case .delete?:
            applyDelete(name: name)
        default:
            return
        }
    }
}

extension RecordEntry {
    /// The entry for a record as saved at `offset`.
    init(record: Record, offset: Int64) {
        self.init(
            recordType: record.recordType, changeTag: record.recordChangeTag ?? "", offset: offset,
            cascadeTargets: record.cascadeTargets(), creationDate: record.creationDate)
    }
}

extension Record {
    /// Names of the records this one references with `.deleteSelf`, in lists too.
    func cascadeTargets() -> [String] {
        var targets: [String] = []
        func visit(_ value: FieldValue) {
            switch value {
            case .reference(let reference) where reference.action == .deleteSelf:
                targets.append(reference.recordID.recordName)
            case .list(let values):
                values.forEach(visit)
            default:
                break
            }
        }
        for key in allKeys() { if let value = self[key] { visit(value) } }
        // One entry per target, however often the record names it.
        var seen = Set<String>()
        return targets.filter { seen.insert($0).inserted }
    }
}
