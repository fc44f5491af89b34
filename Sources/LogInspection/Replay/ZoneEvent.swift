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
        guard let name = event.keyString else { return nil }
        self.zone = zone
        offset = event.offset
        timestamp = event.timestamp
        recordName = name
        changeTag = event.header("changeTag")?.stringValue
        switch (event.header("event")?.stringValue, event.value) {
        case ("save", let value?):
            do {
                let decoded = try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: ZoneID(zoneName: zone)))
                kind = .save
                record = decoded
                recordType = decoded.recordType
            } catch {
                throw ReplayError.undecodableEvent(zone: zone, offset: event.offset, reason: "\(error)")
            }
        case ("delete", nil):
            kind = .delete
            record = nil
            recordType = event.header("recordType")?.stringValue ?? ""
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
