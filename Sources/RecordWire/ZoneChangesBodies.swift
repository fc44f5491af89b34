import Foundation
import RecordStore

/// `POST changes/zone`: the changes of several zones, each from its own token, as
/// `Database.fetchZoneChanges(inZonesWith:configurations:)`.
///
///     {"zones": [{"zoneID": {…}, "syncToken": "base64", "resultsLimit": 400, "desiredKeys": [...]}, …]}
package struct ZoneChangesRequest: Sendable, WireCodable {
    /// One zone's fetch: where it starts, how much, which fields.
    package struct Zone: Sendable {
        package var zoneID: ZoneID
        package var configuration: ZoneChangesConfiguration

        package init(zoneID: ZoneID, configuration: ZoneChangesConfiguration?) {
            self.zoneID = zoneID
            self.configuration = configuration ?? ZoneChangesConfiguration()
        }
    }

    package var zones: [Zone]

    package init(zones: [Zone]) { self.zones = zones }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("zones")
        writer.beginArray()
        for zone in zones {
            writer.beginObject()
            writer.key("zoneID")
            zone.zoneID.write(to: &writer)
            if let token = zone.configuration.previousServerChangeToken {
                writer.key("syncToken")
                token.write(to: &writer)
            }
            if let limit = zone.configuration.resultsLimit {
                writer.key("resultsLimit")
                writer.int(limit)
            }
            WireLists.writeDesiredKeys(zone.configuration.desiredKeys, to: &writer)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let body = try wire.object()
        try body.allowOnly(["zones"])
        self.init(
            zones: try body.list("zones") { zone in
                let object = try zone.object()
                try object.allowOnly(["zoneID", "syncToken", "resultsLimit", "desiredKeys"])
                return Zone(
                    zoneID: try ZoneID(wire: try object.required("zoneID")),
                    configuration: ZoneChangesConfiguration(
                        previousServerChangeToken: try object.optional("syncToken").map(ServerChangeToken.init(wire:)),
                        resultsLimit: try object.optional("resultsLimit")?.int(), desiredKeys: try WireLists.desiredKeys(in: object)))
            })
    }
}

/// The answer to `changes/zone`: one result per zone asked for, a page or an error.
///
///     {"zones": [{"zoneID": {…}, "records": [record, …],
///                 "deletions": [{"recordName": "n2", "recordType": "Note"}, …],
///                 "syncToken": "base64", "moreComing": false, "clientChangeToken": "base64"},
///                {"zoneID": {…}, "error": {error}}]}
package struct ZoneChangesResponse: Sendable, WireCodable {
    /// One zone's page, or its error.
    package struct Zone: Sendable {
        package var zoneID: ZoneID
        package var result: Result<ZoneChanges, RecordStoreError>

        package init(zoneID: ZoneID, _ result: Result<ZoneChanges, RecordStoreError>) {
            self.zoneID = zoneID
            self.result = result
        }

        package func write(to writer: inout JSONWriter) {
            switch result {
            case .success(let changes):
                var page = ZoneChangesPageWriter(zoneID: zoneID)
                for record in changes.changedRecords { page.add(record) }
                for deletion in changes.deletions { page.add(deletion) }
                writer.raw(page.finish(changeToken: changes.changeToken, moreComing: changes.moreComing, clientChangeToken: changes.clientChangeTokenData))
            case .failure(let error):
                writer.raw(ZoneChangesPageWriter.failure(zoneID: zoneID, error))
            }
        }

        package init(wire: WireReader) throws {
            let object = try wire.object()
            let zoneID = try ZoneID(wire: try object.required("zoneID"))
            if let error = object.optional("error") {
                let body = try ErrorBody(wire: error)
                self.init(zoneID: zoneID, .failure(body.recordStoreError ?? RecordStoreError(.internalError, body.reason, zoneID: zoneID)))
                return
            }
            let changes = ZoneChanges(
                changedRecords: try object.list("records") { try Record(wire: $0, as: .stored) },
                deletions: try object.list("deletions") { deletion in
                    let deletion = try deletion.object()
                    return ZoneChanges.Deletion(
                        recordID: RecordID(recordName: try deletion.required("recordName").string(), zoneID: zoneID),
                        recordType: try deletion.required("recordType").string())
                },
                changeToken: try ServerChangeToken(wire: try object.required("syncToken")),
                moreComing: try object.optional("moreComing")?.bool() ?? false,
                clientChangeTokenData: try object.optional("clientChangeToken").map { Data(try $0.base64()) })
            self.init(zoneID: zoneID, .success(changes))
        }
    }

    package var zones: [Zone]

    package init(zones: [Zone]) { self.zones = zones }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.array("zones", zones) { $1.write(to: &$0) }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        self.init(zones: try wire.object().list("zones", Zone.init(wire:)))
    }
}

/// Writes one zone's entry of a `changes/zone` answer as its records come, straight into JSON:
/// what the server does with the records a change fetch reads in place, so that a page is
/// never held as records and a JSON tree besides.
package struct ZoneChangesPageWriter {
    private let zoneID: ZoneID
    /// The `records` array's elements so far.
    private var records = JSONWriter(reservingCapacity: 16 * 1024)
    private var deletions: [ZoneChanges.Deletion] = []

    package init(zoneID: ZoneID) {
        self.zoneID = zoneID
    }

    /// Bytes of records written so far.
    package var recordBytes: Int { records.bytes.count }

    package mutating func add(_ record: Record, desiredKeys: Set<String>? = nil) {
        record.write(to: &records, as: .stored, desiredKeys: desiredKeys)
    }

    package mutating func add(_ deletion: ZoneChanges.Deletion) {
        deletions.append(deletion)
    }

    /// The zone's entry: `{"zoneID", "records", "deletions", "syncToken", "moreComing", "clientChangeToken"}`.
    package func finish(changeToken: ServerChangeToken, moreComing: Bool, clientChangeToken: Data?) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: records.bytes.count + 256 + 64 * deletions.count)
        writer.beginObject()
        writer.key("zoneID")
        zoneID.write(to: &writer)
        writer.key("records")
        writer.beginArray()
        // The elements, their commas between them, as the other writer wrote them.
        if !records.bytes.isEmpty { writer.raw(records.bytes) }
        writer.endArray()
        writer.key("deletions")
        writer.beginArray()
        for deletion in deletions {
            writer.beginObject()
            writer.key("recordName")
            writer.string(deletion.recordID.recordName)
            writer.key("recordType")
            writer.string(deletion.recordType)
            writer.endObject()
        }
        writer.endArray()
        writer.key("syncToken")
        changeToken.write(to: &writer)
        writer.key("moreComing")
        writer.bool(moreComing)
        if let clientChangeToken {
            writer.key("clientChangeToken")
            writer.base64(clientChangeToken)
        }
        writer.endObject()
        return writer.bytes
    }

    /// A zone's entry that is an error: `{"zoneID", "error"}`.
    package static func failure(zoneID: ZoneID, _ error: RecordStoreError) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("zoneID")
        zoneID.write(to: &writer)
        writer.key("error")
        ErrorBody(error).write(to: &writer)
        writer.endObject()
        return writer.bytes
    }
}
