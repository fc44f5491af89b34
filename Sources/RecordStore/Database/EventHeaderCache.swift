import RecordLog

/// Encodes the headers of save and delete events once rather than once per record: the `event`
/// and `recordType` headers are encoded once per record type (while the type repeats, also from
/// one commit to the next), and only the change tag and the `previous` offset are encoded per
/// record, into a reused buffer.
struct EventHeaderCache {
    private var lastType: (name: String, save: EncodedLogHeaders, delete: EncodedLogHeaders)?
    private var scratch = EncodedLogHeaders()

    /// The headers of a save event, as `StoredEvent.headers(_:recordType:changeTag:)` makes them,
    /// then `previous` when known (FORMAT.md §10.1); valid until the next call.
    mutating func saveHeaders(recordType: String, changeTag: String, previous: Int64?) -> EncodedLogHeaders {
        let shared = prefixes(recordType).save
        scratch.removeAll()
        scratch.append(contentsOf: shared)
        scratch.append(key: StoredEvent.changeTagHeader, string: changeTag)
        if let previous { scratch.append(key: StoredEvent.previousHeader, bigEndian: previous) }
        return scratch
    }

    /// The headers of a delete event (a tombstone), with its record's latest save as `previous`;
    /// valid until the next call.
    mutating func deleteHeaders(recordType: String, previous: Int64) -> EncodedLogHeaders {
        let shared = prefixes(recordType).delete
        scratch.removeAll()
        scratch.append(contentsOf: shared)
        scratch.append(key: StoredEvent.previousHeader, bigEndian: previous)
        return scratch
    }

    /// The encoded `event` and `recordType` headers of `recordType`'s saves and deletes.
    private mutating func prefixes(_ recordType: String) -> (save: EncodedLogHeaders, delete: EncodedLogHeaders) {
        if let lastType, lastType.name == recordType { return (lastType.save, lastType.delete) }
        let type = LogHeader(key: StoredEvent.recordTypeHeader, string: recordType)
        var save = EncodedLogHeaders(), delete = EncodedLogHeaders()
        save.append(LogHeader(key: StoredEvent.eventHeader, string: StoredEvent.Kind.save.rawValue))
        save.append(type)
        delete.append(LogHeader(key: StoredEvent.eventHeader, string: StoredEvent.Kind.delete.rawValue))
        delete.append(type)
        lastType = (recordType, save, delete)
        return (save, delete)
    }
}
