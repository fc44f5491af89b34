// The errors the store raises, each with a message that says what to do. Building them here keeps
// the wording in one place and the throwing sites short.
extension RecordStoreError {
    /// The record changed on the server since the client fetched it (a stale or missing change
    /// tag): the error carries the three records CloudKit's does — the server's, the client's as
    /// sent, and their ancestor when the log still has it (`ancestor` says why not otherwise).
    static func serverRecordChanged(
        _ recordID: RecordID, serverRecord: Record, clientRecord: Record, ancestor: ZoneState.Ancestor
    ) -> RecordStoreError {
        let ancestorRecord: Record?
        let about: String
        switch ancestor {
        case .found(let record):
            ancestorRecord = record
            about = "ancestorRecord is the version your change tag names, what your edits started from."
        case .noChangeTag:
            ancestorRecord = nil
            about = "Your record has no change tag (it was created as new over an existing name), so there is no ancestorRecord."
        case .otherIncarnation:
            ancestorRecord = nil
            about = "Your change tag names a version in an earlier incarnation of the zone (deleted since), so there is no ancestorRecord."
        case .notInLog:
            ancestorRecord = nil
            about = "The version your change tag names is no longer in the log (compaction removed it), so ancestorRecord is nil."
        }
        return RecordStoreError(
            .serverRecordChanged,
            "Record \(recordID) changed on the server since you fetched it. Merge your changes (clientRecord) into the "
                + "error's serverRecord and save that; \(about) Saving with .changedKeys or .allKeys instead writes your "
                + "values over the server's without comparing change tags; no policy removes a key you did not set to nil.",
            recordID: recordID, serverRecord: serverRecord, clientRecord: clientRecord, ancestorRecord: ancestorRecord)
    }

    /// The record does not exist.
    static func unknownItem(_ recordID: RecordID) -> RecordStoreError {
        RecordStoreError(
            .unknownItem,
            "Record \(recordID) does not exist. Check the record name and zone; it may have been deleted.",
            recordID: recordID)
    }

    /// No record of this type was ever saved in the database, so it cannot be queried.
    static func unknownRecordType(_ recordType: String) -> RecordStoreError {
        RecordStoreError(
            .unknownItem,
            "Record type \"\(recordType)\" is unknown: no record of it was ever saved in any zone of this database. "
                + "Check the type's spelling, or save a record of it first.")
    }

    /// The zone does not exist.
    static func zoneNotFound(_ zoneID: ZoneID) -> RecordStoreError {
        RecordStoreError(
            .zoneNotFound,
            "Zone \"\(zoneID)\" does not exist. Create the zone before saving records into it.",
            zoneID: zoneID)
    }

    /// Some items of a batch failed; `errors` holds each failed item's error.
    static func partialFailure(_ errors: [RecordID: RecordStoreError], atomic: Bool) -> RecordStoreError {
        RecordStoreError(
            .partialFailure,
            "\(errors.count) item(s) of the request failed; see partialErrors for each one. "
                + (atomic ? "The request was atomic, so nothing was written: fix the failed items and retry."
                    : "The other items were written: retry only the failed ones."),
            partialErrors: errors)
    }

    /// The item was fine but was not written, because another item of its atomic batch failed.
    static func batchRequestFailed(_ recordID: RecordID) -> RecordStoreError {
        RecordStoreError(
            .batchRequestFailed,
            "Record \(recordID) was not written because another item of the same atomic request failed. "
                + "Fix that item and retry the whole request.",
            recordID: recordID)
    }

    /// The request holds more items than one call may.
    static func tooManyItems(_ count: Int, limit: Int) -> RecordStoreError {
        RecordStoreError(
            .limitExceeded,
            "The request holds \(count) items, more than the \(limit) one call may hold. Split it into smaller requests.")
    }

    /// The change token predates what the store retains.
    static func changeTokenExpired(_ zoneID: ZoneID?) -> RecordStoreError {
        RecordStoreError(
            .changeTokenExpired,
            "The change token is older than the changes the store still keeps. Discard what you cached "
                + "from \(zoneID.map { "zone \"\($0)\"" } ?? "the database") and fetch changes again with a nil token.",
            zoneID: zoneID)
    }

    /// A reference points at a record that does not exist.
    static func referenceViolation(from recordID: RecordID, to target: RecordID) -> RecordStoreError {
        RecordStoreError(
            .referenceViolation,
            "Record \(recordID) refers to \(target), which does not exist. Save the target first (in the same "
                + "request is fine), or remove the reference.",
            recordID: recordID)
    }
}
