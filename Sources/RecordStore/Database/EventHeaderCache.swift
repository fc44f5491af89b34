import RecordLog

/// Builds the headers of a batch's save and delete events without allocating them anew for every
/// record: the `event` headers exist once, a record type's header is reused while the type
/// repeats, and so is the header array; only the change tag is new per record.
struct EventHeaderCache {
    private static let save = LogHeader(key: StoredEvent.eventHeader, string: StoredEvent.Kind.save.rawValue)
    private static let delete = LogHeader(key: StoredEvent.eventHeader, string: StoredEvent.Kind.delete.rawValue)
    private var lastType: (name: String, header: LogHeader)?
    private var scratch: [LogHeader]

    init() {
        scratch = []
        scratch.reserveCapacity(3)
    }

    /// The headers of a save event, as `StoredEvent.headers(_:recordType:changeTag:)` makes them;
    /// valid until the next call.
    mutating func saveHeaders(recordType: String, changeTag: String) -> [LogHeader] {
        headers(Self.save, recordType: recordType, changeTag: changeTag)
    }

    /// The headers of a delete event (a tombstone); valid until the next call.
    mutating func deleteHeaders(recordType: String) -> [LogHeader] {
        headers(Self.delete, recordType: recordType, changeTag: nil)
    }

    private mutating func headers(_ event: LogHeader, recordType: String, changeTag: String?) -> [LogHeader] {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(event)
        if let lastType, lastType.name == recordType {
            scratch.append(lastType.header)
        } else {
            let header = LogHeader(key: StoredEvent.recordTypeHeader, string: recordType)
            lastType = (recordType, header)
            scratch.append(header)
        }
        if let changeTag { scratch.append(LogHeader(key: StoredEvent.changeTagHeader, string: changeTag)) }
        return scratch
    }
}
