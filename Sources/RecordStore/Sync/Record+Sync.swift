extension Record {
    /// The record as a sync engine sends it to the remote: `changeTag` as its change tag (the
    /// remote version its edits started from; nil for a record the remote never had), no sync
    /// change tag, and exactly `changedKeys` marked changed — a key the record lacks is sent as
    /// removed.
    package func outgoing(changeTag: String?, changedKeys: [String]) -> Record {
        var sent = Record(
            recordType: recordType, recordID: recordID, sortedFields: fields.map { Field(key: $0.key, value: $0.value) },
            creationDate: creationDate, modificationDate: modificationDate, recordChangeTag: changeTag)
        for key in changedKeys { sent[key] = self[key] }
        sent.setSyncAuthor(syncAuthor)
        return sent
    }

    /// A sync write that makes the local copy `current` (nil when there is none) equal to the
    /// remote's `remote`: every key of `remote` set, every other key of `current` removed, the
    /// record's type taken, and its sync change tag set to `remote`'s change tag.
    package static func replacing(_ current: Record?, with remote: Record) -> Record {
        var write = Record(recordType: remote.recordType, recordID: remote.recordID)
        for field in remote.fields { write[field.key] = field.value }
        if let current {
            for field in current.fields where remote[field.key] == nil { write[field.key] = nil }
        }
        write.syncChangeTag = remote.recordChangeTag
        write.setSyncAuthor(remote.syncAuthor)
        return write
    }

    /// A sync write that keeps the local copy's content and sets its sync change tag to `tag`.
    package func inStep(with tag: String?) -> Record {
        var write = Record(recordType: recordType, recordID: recordID)
        for field in fields { write[field.key] = field.value }
        write.syncChangeTag = tag
        return write
    }
}
