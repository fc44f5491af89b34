import Foundation
import RecordLog

/// One zone's live records, kept in memory and rebuilt by replaying the zone's partition.
struct ZoneState: Sendable {
    let zoneID: ZoneID
    let partition: any LogPartition
    /// The offset of the zone's creation event in the system partition: tells apart two zones of
    /// the same name, one deleted and one created later, so an old token cannot be used on the new.
    let incarnation: Int64
    /// Every live record by name, the record types ever saved, and the `.deleteSelf` references.
    var records = KeyIndex()
    /// Where each deleted record's latest delete lies: the `previous` of a save re-creating it.
    /// Complete for a zone created or replayed from its start; a checkpoint restores its own.
    var deleted = DeletedNames(complete: true)
    /// The query engine's field indexes (Query/ZoneIndexes.swift).
    var indexes = ZoneIndexes()
    /// The latest client change token a commit of this zone carried, if any.
    var clientToken: ClientChangeTokenMark?
    /// How far the state has replayed the partition: what a read-only database's `refresh()`
    /// replays from (a writer's state moves with its own commits and does not keep it).
    var replayedEnd: Int64 = 0

    init(zoneID: ZoneID, partition: any LogPartition, incarnation: Int64) {
        self.zoneID = zoneID
        self.partition = partition
        self.incarnation = incarnation
    }

    /// Records a save of `record` at `offset`; `targets` are its cascade targets and `nameHash`
    /// its name's hash in the key index, when known.
    mutating func applySave(_ record: Record, offset: Int64, targets: CascadeTargets? = nil, nameHash: UInt32? = nil) {
        let name = record.recordID.recordName
        let previousType = records.save(
            name: name, hash: nameHash, recordType: record.recordType, offset: offset, creationMillis: RecordEntry.millis(record.creationDate),
            targets: targets ?? record.cascadeTargets())
        indexes.didSave(name: name, recordType: record.recordType, previousType: previousType, record: record)
    }

    /// Records a delete of `name` at `offset`.
    mutating func applyDelete(name: String, offset: Int64) {
        guard let recordType = records.delete(name: name) else { return }
        deleted.recordDelete(of: name, at: offset)
        indexes.didDelete(name: name, recordType: recordType)
    }

    /// Applies one event read from the zone's partition (replay).
    mutating func apply(_ event: BorrowedLogRecord) throws {
        guard let name = event.keyString else { return }
        // A save has three headers of its own, a delete two, and either may have a `previous`:
        // only a commit's last event may have one more, its client change token (FORMAT.md §10.1).
        let ownHeaders: Int
        switch StoredEvent.kind(of: event) {
        case .save?:
            guard let value = event.value else { return }
            applySave(try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: zoneID), zoneChecked: true), offset: event.offset)
            ownHeaders = 3
        case .delete?:
            applyDelete(name: name, offset: event.offset)
            ownHeaders = 2
        default:
            return
        }
        if event.headerCount > ownHeaders, let token = event.headerValue(StoredEvent.clientChangeTokenHeader) {
            clientToken = ClientChangeTokenMark(data: Array(token), offset: event.offset)
        }
    }
}
