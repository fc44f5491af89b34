import RecordLog
import RecordStore

/// One save or delete of a record, read from its zone's log.
public struct ZoneEvent: Sendable, Hashable {
    /// Save (the value is the record) or delete (a tombstone).
    public enum Kind: String, Sendable, Hashable {
        case save, delete
    }

    /// The zone the event belongs to.
    public var zone: String
    /// The event's offset in the zone.
    public var offset: Int64
    /// When it was appended, in milliseconds since the epoch.
    public var timestamp: Int64
    /// Save or delete.
    public var kind: Kind
    /// The record name (the log record's key).
    public var recordName: String
    /// The record type: the saved record's, or the delete's `recordType` header.
    public var recordType: String
    /// The `changeTag` header of a save.
    public var changeTag: String?
    /// The saved record; nil for a delete.
    public var record: Record?

    /// Decodes a zone event; nil for a log record that is no save or delete (no key, another event).
    ///
    /// - Throws: `ReplayError.undecodableEvent` for a save whose value is not a record.
    public init?(_ event: LogRecord, zone: String) throws(ReplayError) {
        let stored = StoredEvent(event)
        guard let name = stored.name else { return nil }
        self.zone = zone
        offset = event.offset
        timestamp = event.timestamp
        recordName = name
        changeTag = stored.changeTag
        switch stored.kind {
        case .save?:
            let decoded: Record?
            do {
                decoded = try stored.savedRecord(zone: zone)
            } catch {
                throw ReplayError.undecodableEvent(zone: zone, offset: event.offset, reason: "\(error)")
            }
            // A save without a value is no save the store wrote.
            guard let decoded else { return nil }
            kind = .save
            record = decoded
            recordType = decoded.recordType
        case .delete? where event.isTombstone:
            kind = .delete
            record = nil
            recordType = stored.recordType ?? ""
        default:
            return nil
        }
    }

    /// The event as a materialized view receives it.
    public var viewEvent: ViewEvent {
        if let record { return .saved(record) }
        return .deleted(RecordID(recordName: recordName, zoneID: ZoneID(zoneName: zone)), recordType: recordType)
    }
}
