import Foundation
import RecordStore

/// The body of every error answer, and of each failed item inside a successful one — CloudKit
/// Web Services' error dictionary (`serverErrorCode`, `reason`, `recordName`, `retryAfter`) with
/// what a `RecordStoreError` carries besides, so that a client rebuilds the same error: the
/// records of a conflict, each item's error of a partial failure.
package struct ErrorBody: Codable, Sendable, Hashable {
    /// One failed item of a partial failure.
    package struct ItemError: Codable, Sendable, Hashable {
        package var recordID: RecordID
        package var error: ErrorBody

        package init(recordID: RecordID, error: ErrorBody) {
            self.recordID = recordID
            self.error = error
        }
    }

    package var serverErrorCode: ServerErrorCode
    /// What went wrong and what to do, for a developer.
    package var reason: String
    /// The request's ID (also in the `X-Request-ID` header and the server's log).
    package var requestID: String?
    /// The record's name, as CloudKit Web Services reports it; `recordID` names the zone too.
    package var recordName: String?
    package var recordID: RecordID?
    package var zoneID: ZoneID?
    package var serverRecord: Record?
    package var clientRecord: Record?
    package var ancestorRecord: Record?
    package var partialErrors: [ItemError]?
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
        recordName = error.recordID?.recordName
        recordID = error.recordID
        zoneID = error.zoneID
        serverRecord = error.serverRecord
        clientRecord = error.clientRecord
        ancestorRecord = error.ancestorRecord
        if !error.partialErrors.isEmpty {
            partialErrors = error.partialErrors
                .sorted { ($0.key.zoneID.zoneName, $0.key.recordName) < ($1.key.zoneID.zoneName, $1.key.recordName) }
                .map { ItemError(recordID: $0.key, error: ErrorBody($0.value)) }
        }
    }

    /// The store error this body describes; nil when its code is the server's own (auth,
    /// throttling, an unknown path), which no `RecordStoreError` means.
    package var recordStoreError: RecordStoreError? {
        guard let code = serverErrorCode.recordStoreCode else { return nil }
        var partial: [RecordID: RecordStoreError] = [:]
        for item in partialErrors ?? [] {
            partial[item.recordID] = item.error.recordStoreError
                ?? RecordStoreError(.internalError, "\(item.error.serverErrorCode.rawValue): \(item.error.reason)", recordID: item.recordID)
        }
        return RecordStoreError(
            code, reason, recordID: recordID, zoneID: zoneID, serverRecord: serverRecord, clientRecord: clientRecord,
            ancestorRecord: ancestorRecord, partialErrors: partial)
    }
}
