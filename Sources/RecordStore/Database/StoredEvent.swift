import RecordLog

/// The store's events in its log, the one definition of their format: the store writes and reads
/// it, and log-inspect and log-replay decode with it.
///
/// An event is one log record: its kind in the `event` header, the record type and change tag in
/// the `recordType` and `changeTag` headers, the record name (or zone name) as the key, the
/// encoded record as the value, null for a delete. Zone, subscription and index events live in the
/// system partition.
///
/// ```swift
/// let event = StoredEvent(record)
/// if event.kind == .save, let saved = try event.savedRecord(zone: "Notes") { print(saved.recordType) }
/// ```
package struct StoredEvent: Sendable {
    /// Header names.
    package static let eventHeader = eventHeaderUTF8.description
    /// The event header's name as bytes, with no `String` to bridge per record read in place.
    package static let eventHeaderUTF8: StaticString = "event"
    package static let recordTypeHeader = "recordType"
    package static let changeTagHeader = "changeTag"
    /// On the last event of a commit whose request carried a client change token: the token's
    /// bytes, as the client gave them (`Database.modifyRecords(…clientChangeTokenData:)`).
    package static let clientChangeTokenHeader = "clientChangeToken"
    /// On a save or delete of a zone: the offset of the same record's previous event in the
    /// zone, 8 bytes big-endian; ``noPreviousEvent`` on the record's first event. Absent where
    /// the writer could not tell (FORMAT.md §10.1), and in logs written before it.
    package static let previousHeader = "previous"
    /// The `previous` value of a record's first event: it has none.
    package static let noPreviousEvent: Int64 = -1

    /// The log partition holding database-level events (zones, subscriptions, the store's identity).
    /// Its name starts with `_`, which no user zone may.
    package static let systemPartition = "_database"

    /// The value of the `event` header.
    package enum Kind: String, Sendable, CaseIterable {
        case save, delete
        case createZone, deleteZone
        case saveSubscription, deleteSubscription
        case storeIdentity
        /// An index declared with `Database.createIndex`: the record type in the `recordType`
        /// header, the field key as the value (UTF-8).
        case createIndex
    }

    package static func kind(of record: LogRecord) -> Kind? {
        record.header(eventHeader)?.value.flatMap { value in value.withUnsafeBytes(kind(named:)) }
    }

    package static func headers(_ kind: Kind, recordType: String? = nil, changeTag: String? = nil) -> [LogHeader] {
        var headers = [LogHeader(key: eventHeader, string: kind.rawValue)]
        if let recordType { headers.append(LogHeader(key: recordTypeHeader, string: recordType)) }
        if let changeTag { headers.append(LogHeader(key: changeTagHeader, string: changeTag)) }
        return headers
    }

    /// Whether `name` is one of the headers the store writes (`event`, `recordType`, `changeTag`,
    /// `clientChangeToken`, `previous`).
    package static func isStoreHeader(_ name: String) -> Bool {
        name == eventHeader || name == recordTypeHeader || name == changeTagHeader || name == clientChangeTokenHeader
            || name == previousHeader
    }

    /// The log record read.
    package let record: LogRecord
    /// The `event` header as written, also when it names no kind this store writes; nil without
    /// one (a record of a foreign segment).
    package let eventName: String?

    /// Reads `record` as a store event. Never fails: what is missing is nil.
    package init(_ record: LogRecord) {
        self.record = record
        eventName = record.header(Self.eventHeader)?.stringValue
    }

    /// The kind the `event` header names; nil without one, or for a kind this store does not write.
    package var kind: Kind? { Self.kind(of: record) }
    /// The key as a record name (or a zone name in the system partition); nil when null or not UTF-8.
    package var name: String? { record.keyString }
    /// The `recordType` header: on a save, a delete and a `createIndex`.
    package var recordType: String? { record.header(Self.recordTypeHeader)?.stringValue }
    /// The `changeTag` header of a save.
    package var changeTag: String? { record.header(Self.changeTagHeader)?.stringValue }
    /// The `clientChangeToken` header: on the last event of a commit whose request carried one.
    package var clientChangeToken: [UInt8]? { record.header(Self.clientChangeTokenHeader)?.value }
    /// The `previous` header: where the record's previous event is.
    package var previous: PreviousEvent { PreviousEvent(bytes: record.header(Self.previousHeader)?.value) }

    /// The record a save event holds, decoded as the store reads it back; nil for any other event
    /// (a delete, a system event, a record without an `event` header) and for a save without a
    /// value or whose key is not a UTF-8 record name.
    ///
    /// - Throws: `RecordDecodingError` when the value is not a record encoding.
    package func savedRecord(zone: String) throws(RecordDecodingError) -> Record? {
        guard kind == .save, let value = record.value, let name else { return nil }
        return try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: ZoneID(zoneName: zone)))
    }
}
