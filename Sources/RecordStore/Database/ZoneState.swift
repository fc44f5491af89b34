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
    /// Whether the zone's log may hold an event that a compaction could remove: a version a
    /// later save replaced, a delete, or an event this state has not applied (a log it did not
    /// replay from its start). False while every event since the log's start created a record:
    /// an insert-only log, which a compaction would read whole to remove nothing, is left alone
    /// by the automatic policy (``Database/publish(_:)``).
    var mayHoldReplacedEvents: Bool

    init(zoneID: ZoneID, partition: any LogPartition, incarnation: Int64) {
        self.zoneID = zoneID
        self.partition = partition
        self.incarnation = incarnation
        mayHoldReplacedEvents = partition.endOffset > partition.startOffset
    }

    /// Records a save of `record` at `offset`; `targets` are its cascade targets and `nameHash`
    /// its name's hash in the key index, when known.
    /// Returns the type of the record it replaced, nil for a new record.
    @discardableResult
    mutating func applySave(_ record: Record, offset: Int64, targets: CascadeTargets? = nil, nameHash: UInt32? = nil) -> String? {
        let name = record.recordID.recordName
        let previousType = records.save(
            name: name, hash: nameHash, recordType: record.recordType, offset: offset, creationMillis: RecordEntry.millis(record.creationDate),
            targets: targets ?? record.cascadeTargets())
        if previousType != nil { mayHoldReplacedEvents = true }
        indexes.didSave(name: name, recordType: record.recordType, previousType: previousType, record: record)
        return previousType
    }

    /// Records a delete of `name` at `offset`; returns the deleted record's type, nil when it
    /// was not live.
    @discardableResult
    mutating func applyDelete(name: String, offset: Int64) -> String? {
        mayHoldReplacedEvents = true
        guard let recordType = records.delete(name: name) else { return nil }
        deleted.recordDelete(of: name, at: offset)
        indexes.didDelete(name: name, recordType: recordType)
        return recordType
    }

    /// Keeps the client change token a commit's last event carries (FORMAT.md §10.1).
    mutating func noteClientToken(of event: BorrowedLogRecord) {
        // A save has three headers of its own, a delete two, and either may have a `previous`:
        // only a commit's last event may have one more, its client change token.
        let ownHeaders = StoredEvent.kind(of: event) == .save ? 3 : 2
        if event.headerCount > ownHeaders, let token = event.headerValue(StoredEvent.clientChangeTokenHeader) {
            clientToken = ClientChangeTokenMark(data: Array(token), offset: event.offset)
        }
    }

    /// Applies one event read from the zone's partition (replay).
    mutating func apply(_ event: BorrowedLogRecord) throws {
        guard let name = event.keyString else { return }
        switch StoredEvent.kind(of: event) {
        case .save?:
            guard let value = event.value else { return }
            applySave(try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: zoneID), zoneChecked: true), offset: event.offset)
        case .delete?:
            applyDelete(name: name, offset: event.offset)
        default:
            mayHoldReplacedEvents = true
            return
        }
        noteClientToken(of: event)
    }
}
