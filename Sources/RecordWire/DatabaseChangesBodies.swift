import RecordStore

/// `POST changes/database`: the zones changed and deleted since a database token.
///
///     {"syncToken": "base64"}          (absent: every zone)
package struct DatabaseChangesRequest: Sendable, WireCodable {
    package var syncToken: ServerChangeToken?

    package init(syncToken: ServerChangeToken?) { self.syncToken = syncToken }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if let syncToken {
            writer.key("syncToken")
            syncToken.write(to: &writer)
        }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        try object.allowOnly(["syncToken"])
        self.init(syncToken: try object.optional("syncToken").map(ServerChangeToken.init(wire:)))
    }
}

/// The answer to `changes/database`.
///
///     {"changedZones": [{"zoneName": …}, …], "deletedZones": [...], "syncToken": "base64", "moreComing": false}
package struct DatabaseChangesResponse: Sendable, WireCodable {
    package var changes: DatabaseChanges

    package init(_ changes: DatabaseChanges) { self.changes = changes }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.array("changedZones", changes.changedZones) { $1.write(to: &$0) }
        writer.array("deletedZones", changes.deletedZones) { $1.write(to: &$0) }
        writer.key("syncToken")
        changes.changeToken.write(to: &writer)
        writer.key("moreComing")
        writer.bool(changes.moreComing)
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        self.init(
            DatabaseChanges(
                changedZones: try object.list("changedZones", ZoneID.init(wire:)), deletedZones: try object.list("deletedZones", ZoneID.init(wire:)),
                changeToken: try ServerChangeToken(wire: try object.required("syncToken")), moreComing: try object.optional("moreComing")?.bool() ?? false))
    }
}
