import Foundation
import RecordStore

/// `POST records/modify`: saves and deletes, as `Database.modifyRecords`.
///
///     {"saves": [record, …], "deletes": [{"recordName": "n2", "zoneID": {…}}, …],
///      "savePolicy": "ifServerRecordUnchanged", "atomic": true, "clientChangeToken": "base64"}
///
/// A saved record writes every key in its `fields`, or exactly its `changedKeys` when it lists
/// them (`Record+Wire.swift`).
package struct ModifyRecordsRequest: Sendable, WireCodable {
    private static let policies: KeyValuePairs<String, SavePolicy> = [
        "ifServerRecordUnchanged": .ifServerRecordUnchanged, "changedKeys": .changedKeys, "allKeys": .allKeys,
    ]

    package var saves: [Record]
    package var deletes: [RecordID]
    package var savePolicy: SavePolicy
    /// All or nothing (the default), or each item alone.
    package var atomic: Bool
    /// A request repeating the token of a zone's latest commit is a retry, answered with that
    /// commit's results.
    package var clientChangeToken: Data?

    package init(saves: [Record], deletes: [RecordID], savePolicy: SavePolicy, atomic: Bool, clientChangeToken: Data?) {
        self.saves = saves
        self.deletes = deletes
        self.savePolicy = savePolicy
        self.atomic = atomic
        self.clientChangeToken = clientChangeToken
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.array("saves", saves) { $1.write(to: &$0, as: .save(savePolicy)) }
        writer.array("deletes", deletes) { $1.write(to: &$0) }
        writer.key("savePolicy")
        writer.string(Self.policies.first { $0.value == savePolicy }?.key ?? "ifServerRecordUnchanged")
        writer.key("atomic")
        writer.bool(atomic)
        if let clientChangeToken {
            writer.key("clientChangeToken")
            writer.base64(clientChangeToken)
        }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        try object.allowOnly(["saves", "deletes", "savePolicy", "atomic", "clientChangeToken"])
        let policy = try object.optional("savePolicy")?.oneOf(Self.policies) ?? .ifServerRecordUnchanged
        self.init(
            saves: try object.list("saves") { try Record(wire: $0, as: .save(policy)) },
            deletes: try object.list("deletes", RecordID.init(wire:)),
            savePolicy: policy,
            atomic: try object.optional("atomic")?.bool() ?? true,
            clientChangeToken: try object.optional("clientChangeToken").map { Data(try $0.base64()) })
    }
}

/// The answer to `records/modify`: one result per item, in the request's order.
///
///     {"saved": [record or error, …], "deleted": [{"recordName", "zoneID", "deleted": true} or error, …]}
package struct ModifyRecordsResponse: Sendable, WireCodable {
    package var saved: [RecordResult]
    package var deleted: [DeleteResult]

    package init(saved: [RecordResult], deleted: [DeleteResult]) {
        self.saved = saved
        self.deleted = deleted
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.array("saved", saved) { $1.write(to: &$0) }
        writer.array("deleted", deleted) { $1.write(to: &$0) }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        self.init(saved: try object.list("saved", RecordResult.init(wire:)), deleted: try object.list("deleted", DeleteResult.init(wire:)))
    }
}

/// One record's outcome, as CloudKit Web Services lists it: the record, or an error object
/// (it has `serverErrorCode`) naming the record.
package struct RecordResult: Sendable, WireCodable {
    package var recordID: RecordID
    package var result: Result<Record, RecordStoreError>

    package init(recordID: RecordID, _ result: Result<Record, RecordStoreError>) {
        self.recordID = recordID
        self.result = result
    }

    package func write(to writer: inout JSONWriter) {
        switch result {
        case .success(let record):
            record.write(to: &writer, as: .stored)
        case .failure(let error):
            ErrorBody(error, about: recordID).write(to: &writer)
        }
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        if object.optional("serverErrorCode") != nil {
            let body = try ErrorBody(membersOf: object)
            guard let id = body.recordID else { throw wire.failure("an item's error names no recordName") }
            self.init(
                recordID: id,
                .failure(body.recordStoreError ?? RecordStoreError(.internalError, "\(body.serverErrorCode.rawValue): \(body.reason)", recordID: id)))
        } else {
            let record = try Record(wire: wire, as: .stored)
            self.init(recordID: record.recordID, .success(record))
        }
    }
}

/// One delete's outcome: `{"recordName", "zoneID", "deleted": true}`, or an error object naming
/// the record.
package struct DeleteResult: Sendable, WireCodable {
    package var recordID: RecordID
    package var result: Result<Void, RecordStoreError>

    package init(recordID: RecordID, _ result: Result<Void, RecordStoreError>) {
        self.recordID = recordID
        self.result = result
    }

    package func write(to writer: inout JSONWriter) {
        switch result {
        case .success:
            writer.beginObject()
            recordID.writeMembers(to: &writer)
            writer.key("deleted")
            writer.bool(true)
            writer.endObject()
        case .failure(let error):
            ErrorBody(error, about: recordID).write(to: &writer)
        }
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        let id = try RecordID(membersOf: object)
        if object.optional("serverErrorCode") != nil {
            let body = try ErrorBody(membersOf: object)
            self.init(recordID: id, .failure(body.recordStoreError ?? RecordStoreError(.internalError, body.reason, recordID: id)))
        } else {
            self.init(recordID: id, .success(()))
        }
    }
}
