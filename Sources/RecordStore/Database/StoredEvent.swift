import RecordLog

/// How database events are stored as log records: the kind and metadata in Kafka headers, the
/// record name (or zone name) as the key, the encoded record as the value, null for a delete.
enum StoredEvent {
    /// Header names.
    static let eventHeader = eventHeaderUTF8.description
    /// The event header's name as bytes, with no `String` to bridge per record read in place.
    static let eventHeaderUTF8: StaticString = "event"
    static let recordTypeHeader = "recordType"
    static let changeTagHeader = "changeTag"

    /// The log partition holding database-level events (zones, subscriptions, the store's identity).
    /// Its name starts with `_`, which no user zone may.
    static let systemPartition = "_database"

    /// The value of the `event` header.
    enum Kind: String, Sendable, CaseIterable {
        case save, delete
        case createZone, deleteZone
        case saveSubscription, deleteSubscription
        case storeIdentity
        /// An index declared with `Database.createIndex`: the record type in the `recordType`
        /// header, the field key as the value (UTF-8).
        case createIndex
    }

    static func kind(of record: LogRecord) -> Kind? {
        record.header(eventHeader)?.value.flatMap { value in value.withUnsafeBytes(kind(named:)) }
    }

    static func headers(_ kind: Kind, recordType: String? = nil, changeTag: String? = nil) -> [LogHeader] {
        var headers = [LogHeader(key: eventHeader, string: kind.rawValue)]
        if let recordType { headers.append(LogHeader(key: recordTypeHeader, string: recordType)) }
        if let changeTag { headers.append(LogHeader(key: changeTagHeader, string: changeTag)) }
        return headers
    }
}
