import Foundation
import RecordStore

/// The body of every error answer, and of each failed item inside a successful one — CloudKit
/// Web Services' error dictionary (`serverErrorCode`, `reason`, `recordName`, `retryAfter`) with
/// what a `RecordStoreError` carries besides, so that a client rebuilds the same error: the
/// records of a conflict, each item's error of a partial failure.
///
///     {"serverErrorCode": "CONFLICT", "reason": "…", "requestID": "…",
///      "recordName": "n1", "zoneID": {"zoneName": "Notes"},
///      "serverRecord": {…}, "clientRecord": {…}, "ancestorRecord": {…}}
///     {"serverErrorCode": "PARTIAL_FAILURE", "reason": "…",
///      "partialErrors": [{"serverErrorCode": "CONFLICT", "recordName": "n1", …}, …]}
package struct ErrorBody: Sendable, Hashable, WireCodable {
    package var serverErrorCode: ServerErrorCode
    /// What went wrong and what to do, for a developer.
    package var reason: String
    /// The request's ID (also in the `X-Request-ID` header and the server's log).
    package var requestID: String?
    /// The record the error is about (`recordName` and `zoneID` on the wire).
    package var recordID: RecordID?
    /// The zone the error is about, when it is about no record.
    package var zoneID: ZoneID?
    package var serverRecord: Record?
    /// The record as sent, its changed keys included.
    package var clientRecord: Record?
    package var ancestorRecord: Record?
    /// Each failed item's error; each names its record.
    package var partialErrors: [ErrorBody]?
    /// Seconds to wait before trying again (with `THROTTLED` and `TRY_AGAIN_LATER`).
    package var retryAfter: Double?

    package init(
        serverErrorCode: ServerErrorCode, reason: String, requestID: String? = nil, retryAfter: Double? = nil
    ) {
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.requestID = requestID
        self.retryAfter = retryAfter
    }

    /// The body of a store error, its details and each partial error's included.
    package init(_ error: RecordStoreError, requestID: String? = nil) {
        self.init(serverErrorCode: ServerErrorCode(error.code), reason: error.message, requestID: requestID)
        recordID = error.recordID
        zoneID = error.recordID == nil ? error.zoneID : nil
        serverRecord = error.serverRecord
        clientRecord = error.clientRecord
        ancestorRecord = error.ancestorRecord
        if !error.partialErrors.isEmpty {
            partialErrors = error.partialErrors
                .sorted { ($0.key.zoneID.zoneName, $0.key.recordName) < ($1.key.zoneID.zoneName, $1.key.recordName) }
                .map { ErrorBody($0.value, about: $0.key) }
        }
    }

    /// The body of an item's error, naming the item's record.
    package init(_ error: RecordStoreError, about recordID: RecordID) {
        self.init(error)
        self.recordID = recordID
        zoneID = nil
    }

    /// The store error this body describes; nil when its code is the server's own (auth,
    /// throttling, an unknown path), which no `RecordStoreError` means.
    package var recordStoreError: RecordStoreError? {
        guard let code = serverErrorCode.recordStoreCode else { return nil }
        var partial: [RecordID: RecordStoreError] = [:]
        for item in partialErrors ?? [] {
            guard let id = item.recordID else { continue }
            partial[id] = item.recordStoreError
                ?? RecordStoreError(.internalError, "\(item.serverErrorCode.rawValue): \(item.reason)", recordID: id)
        }
        return RecordStoreError(
            code, reason, recordID: recordID, zoneID: zoneID ?? recordID?.zoneID, serverRecord: serverRecord, clientRecord: clientRecord,
            ancestorRecord: ancestorRecord, partialErrors: partial)
    }

    /// ``recordStoreError``, or for the server's own codes an `internalError` quoting it.
    package var storeErrorOrInternal: RecordStoreError {
        recordStoreError ?? RecordStoreError(.internalError, "\(serverErrorCode.rawValue): \(reason)", recordID: recordID, zoneID: zoneID)
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writeMembers(to: &writer)
        writer.endObject()
    }

    /// The members, inside an object the caller writes (a failed item of a list).
    package func writeMembers(to writer: inout JSONWriter) {
        writer.key("serverErrorCode")
        writer.string(serverErrorCode.rawValue)
        writer.key("reason")
        writer.string(reason)
        if let requestID {
            writer.key("requestID")
            writer.string(requestID)
        }
        if let recordID {
            recordID.writeMembers(to: &writer)
        } else if let zoneID {
            writer.key("zoneID")
            zoneID.write(to: &writer)
        }
        if let retryAfter {
            writer.key("retryAfter")
            writer.double(retryAfter)
        }
        if let serverRecord {
            writer.key("serverRecord")
            serverRecord.write(to: &writer, as: .stored)
        }
        if let clientRecord {
            writer.key("clientRecord")
            clientRecord.write(to: &writer, as: .save(.allKeys))
        }
        if let ancestorRecord {
            writer.key("ancestorRecord")
            ancestorRecord.write(to: &writer, as: .stored)
        }
        if let partialErrors {
            writer.array("partialErrors", partialErrors) { $1.write(to: &$0) }
        }
    }

    package init(wire: WireReader) throws {
        try self.init(membersOf: try wire.object())
    }

    /// The error an object's members describe.
    package init(membersOf object: WireObject) throws {
        let codeReader = try object.required("serverErrorCode")
        let name = try codeReader.string()
        guard let code = ServerErrorCode(rawValue: name) else { throw codeReader.failure("unknown serverErrorCode \"\(name)\"") }
        self.init(
            serverErrorCode: code, reason: try object.required("reason").string(), requestID: try object.optional("requestID")?.string(),
            retryAfter: try object.optional("retryAfter")?.double())
        if let name = object.optional("recordName") {
            recordID = RecordID(recordName: try name.string(), zoneID: try ZoneID(optionalIn: object))
        } else {
            zoneID = try object.optional("zoneID").map(ZoneID.init(wire:))
        }
        serverRecord = try object.optional("serverRecord").map { try Record(wire: $0, as: .stored) }
        clientRecord = try object.optional("clientRecord").map { try Record(wire: $0, as: .save(.allKeys)) }
        ancestorRecord = try object.optional("ancestorRecord").map { try Record(wire: $0, as: .stored) }
        if object.optional("partialErrors") != nil {
            partialErrors = try object.list("partialErrors", ErrorBody.init(wire:))
        }
    }
}
