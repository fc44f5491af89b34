// The errors the store raises, each with a message that says what to do. Building them here keeps
// the wording in one place and the throwing sites short.
extension RecordStoreError {
    /// The record changed on the server since the client fetched it (a stale or missing change tag).
    static func serverRecordChanged(_ recordID: RecordID, serverRecord: Record) -> RecordStoreError {
        RecordStoreError(
            .serverRecordChanged,
            "Record \(recordID) changed on the server since you fetched it. Apply your changes to the "
                + "error's serverRecord and save that, or save with the .allKeys policy to overwrite it.",
            recordID: recordID, serverRecord: serverRecord)
    }

    /// The record does not exist.
    static func unknownItem(_ recordID: RecordID) -> RecordStoreError {
        RecordStoreError(
            .unknownItem,
            "Record \(recordID) does not exist. Check the record name and zone; it may have been deleted.",
            recordID: recordID)
    }

    /// No record of this type was ever saved, so it cannot be queried.
    static func unknownRecordType(_ recordType: String) -> RecordStoreError {
        RecordStoreError(
            .unknownItem,
            "No record of type \"\(recordType)\" was ever saved. Check the type's spelling, or save a record of it first.")
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
