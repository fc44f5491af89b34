import RecordLog

/// What one log record of a store means, for tools that show a log (log-inspect, log-replay).
///
/// ```swift
/// let event = EventDescription.describe(record, zoneName: "Notes")
/// print(event.kind, event.recordType ?? "-", event.fields?["title"] ?? "-")
/// ```
///
/// Describing never throws: a value that does not decode (a foreign segment, damage) leaves
/// ``fields`` nil and says why in ``decodingError``.
public struct EventDescription: Sendable {
    /// The name of the system partition, which holds zone, subscription and index events.
    public static let systemPartition = StoredEvent.systemPartition

    /// The `event` header (`save`, `delete`, `createZone`, …); for a record without one (a
    /// foreign segment) `save`, or `delete` for a tombstone.
    public var kind: String
    /// The `recordType` header, else the decoded record's type.
    public var recordType: String?
    /// The `changeTag` header, else the decoded record's change tag.
    public var changeTag: String?
    /// The decoded record of a save event in a zone partition; nil for deletes, system events,
    /// records without an `event` header (a foreign segment's) and values that do not decode.
    public var fields: Record?
    /// Why a save event's value could not be decoded as a record (decoding was tried and failed).
    public var decodingError: String?
    /// For an event of a sync system record in a device's store (FORMAT.md §10.3), what it means:
    /// `pending save of n1 (text)`, `pending delete of n1`, `acknowledged n1`, `zone sync state: token saved`.
    public var sync: String?
    /// For a synced record's save in a device's store: the remote version it is in step with.
    public var syncChangeTag: String?

    /// Creates a description from its parts.
    package init(kind: String, recordType: String?, changeTag: String?, fields: Record?, decodingError: String?) {
        self.kind = kind
        self.recordType = recordType
        self.changeTag = changeTag
        self.fields = fields
        self.decodingError = decodingError
    }

    /// Describes `record`, read from the partition of `zoneName`. Never throws.
    public static func describe(_ record: LogRecord, zoneName: String) -> EventDescription {
        let event = StoredEvent(record)
        let kind = event.eventName ?? (record.isTombstone ? StoredEvent.Kind.delete.rawValue : StoredEvent.Kind.save.rawValue)
        var description = EventDescription(
            kind: kind, recordType: event.recordType, changeTag: event.changeTag, fields: nil, decodingError: nil)
        // Only a store's save event holds an encoded record; a foreign record's value is opaque.
        guard event.kind == .save, record.value != nil, zoneName != StoredEvent.systemPartition else {
            if zoneName != StoredEvent.systemPartition, record.isTombstone {
                description.sync = syncMeaning(key: record.keyString, isTombstone: true, record: nil)
            }
            return description
        }
        guard event.name != nil else {
            description.decodingError = "the key is not a UTF-8 record name"
            return description
        }
        do {
            guard let decoded = try event.savedRecord(zone: zoneName) else { return description }
            description.fields = decoded
            description.sync = syncMeaning(key: record.keyString, isTombstone: false, record: decoded)
            description.syncChangeTag = decoded.syncChangeTag
            description.recordType = description.recordType ?? decoded.recordType
            description.changeTag = description.changeTag ?? decoded.recordChangeTag
        } catch {
            description.decodingError = "\(error.reason) at byte \(error.offset)"
        }
        return description
    }
}
