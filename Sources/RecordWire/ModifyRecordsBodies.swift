import Foundation
import RecordStore

/// `POST records/modify`: saves and deletes, as `Database.modifyRecords`.
package struct ModifyRecordsRequest: Codable, Sendable {
    /// `SavePolicy` by name.
    package enum Policy: String, Codable, Sendable {
        case ifServerRecordUnchanged, changedKeys, allKeys

        package init(_ policy: SavePolicy) {
            switch policy {
            case .ifServerRecordUnchanged: self = .ifServerRecordUnchanged
            case .changedKeys: self = .changedKeys
            case .allKeys: self = .allKeys
            }
        }

        package var savePolicy: SavePolicy {
            switch self {
            case .ifServerRecordUnchanged: .ifServerRecordUnchanged
            case .changedKeys: .changedKeys
            case .allKeys: .allKeys
            }
        }
    }

    /// Records to save, with their change tags and changed keys (a record's Codable form).
    package var saves: [Record]
    package var deletes: [RecordID]
    package var savePolicy: Policy
    /// All or nothing (the default), or each item alone.
    package var atomic: Bool
    /// The client change token, base64: a request repeating the token of a zone's latest commit
    /// is a retry, answered with that commit's results.
    package var clientChangeToken: String?

    package init(saves: [Record], deletes: [RecordID], savePolicy: SavePolicy, atomic: Bool, clientChangeToken: Data?) {
        self.saves = saves
        self.deletes = deletes
        self.savePolicy = Policy(savePolicy)
        self.atomic = atomic
        self.clientChangeToken = clientChangeToken?.base64EncodedString()
    }

    private enum CodingKeys: String, CodingKey { case saves, deletes, savePolicy, atomic, clientChangeToken }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        saves = try container.decodeIfPresent([Record].self, forKey: .saves) ?? []
        deletes = try container.decodeIfPresent([RecordID].self, forKey: .deletes) ?? []
        savePolicy = try container.decodeIfPresent(Policy.self, forKey: .savePolicy) ?? .ifServerRecordUnchanged
        atomic = try container.decodeIfPresent(Bool.self, forKey: .atomic) ?? true
        clientChangeToken = try container.decodeIfPresent(String.self, forKey: .clientChangeToken)
    }
}

/// The answer to `records/modify`: one result per item, in the request's order.
package struct ModifyRecordsResponse: Codable, Sendable {
    package var saved: [RecordResult]
    package var deleted: [DeleteResult]

    package init(saved: [RecordResult], deleted: [DeleteResult]) {
        self.saved = saved
        self.deleted = deleted
    }
}

/// One record's outcome: the record, or why not.
package struct RecordResult: Codable, Sendable {
    package var recordID: RecordID
    package var record: Record?
    package var error: ErrorBody?

    package init(recordID: RecordID, _ result: Result<Record, RecordStoreError>) {
        self.recordID = recordID
        switch result {
        case .success(let record): self.record = record
        case .failure(let error): self.error = ErrorBody(error)
        }
    }

    /// The result as the store gives it.
    package var result: Result<Record, RecordStoreError> {
        if let record { return .success(record) }
        return .failure(
            error?.recordStoreError
                ?? RecordStoreError(.internalError, "The server answered neither a record nor an error for \(recordID).", recordID: recordID))
    }
}

/// One delete's outcome: done, or why not.
package struct DeleteResult: Codable, Sendable {
    package var recordID: RecordID
    package var error: ErrorBody?

    package init(recordID: RecordID, _ result: Result<Void, RecordStoreError>) {
        self.recordID = recordID
        if case .failure(let error) = result { self.error = ErrorBody(error) }
    }

    package var result: Result<Void, RecordStoreError> {
        guard let error else { return .success(()) }
        return .failure(error.recordStoreError ?? RecordStoreError(.internalError, error.reason, recordID: recordID))
    }
}
