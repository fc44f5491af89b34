import RecordStore

/// The answer to `GET zones/list`: every zone, sorted by name.
///
///     {"zones": [zone, …]}
package struct ZonesListResponse: Sendable, WireCodable {
    package var zones: [RecordZone]

    package init(zones: [RecordZone]) { self.zones = zones }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.array("zones", zones) { $1.write(to: &$0) }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        self.init(zones: try wire.object().list("zones", RecordZone.init(wire:)))
    }
}

/// `POST zones/modify`: zones to create (or return as they are) and to delete, in order.
///
///     {"operations": [{"operationType": "create", "zone": {"zoneID": {…}}},
///                     {"operationType": "delete", "zoneID": {…}}]}
package struct ZonesModifyRequest: Sendable, WireCodable {
    /// One operation.
    package enum Operation: Sendable {
        case create(RecordZone)
        case delete(ZoneID)
    }

    package var operations: [Operation]

    package init(operations: [Operation]) { self.operations = operations }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("operations")
        writer.beginArray()
        for operation in operations {
            writer.beginObject()
            writer.key("operationType")
            switch operation {
            case .create(let zone):
                writer.string("create")
                writer.key("zone")
                zone.write(to: &writer)
            case .delete(let zoneID):
                writer.string("delete")
                writer.key("zoneID")
                zoneID.write(to: &writer)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        enum Kind { case create, delete }
        let body = try wire.object()
        try body.allowOnly(["operations"])
        self.init(
            operations: try body.list("operations") { operation in
                let object = try operation.object()
                try object.allowOnly(["operationType", "zone", "zoneID"])
                switch try object.required("operationType").oneOf(["create": Kind.create, "delete": .delete]) {
                case .create: return .create(try RecordZone(wire: try object.required("zone")))
                case .delete: return .delete(try ZoneID(wire: try object.required("zoneID")))
                }
            })
    }
}

/// The answer to `zones/modify`: one result per operation, in order.
///
///     {"zones": [{"zoneID": {…}, "zone": zone}, {"zoneID": {…}, "deleted": true},
///                {"zoneID": {…}, "error": {error}}]}
package struct ZonesModifyResponse: Sendable, WireCodable {
    package struct Result: Sendable {
        package var zoneID: ZoneID
        /// The zone created (or as it was); nil for a delete.
        package var outcome: Swift.Result<RecordZone?, RecordStoreError>

        package init(zoneID: ZoneID, _ outcome: Swift.Result<RecordZone?, RecordStoreError>) {
            self.zoneID = zoneID
            self.outcome = outcome
        }
    }

    package var zones: [Result]

    package init(zones: [Result]) { self.zones = zones }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("zones")
        writer.beginArray()
        for result in zones {
            writer.beginObject()
            writer.key("zoneID")
            result.zoneID.write(to: &writer)
            WireLists.writeOutcome(result.outcome, valueKey: "zone", to: &writer) { $1.write(to: &$0) }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        self.init(
            zones: try wire.object().list("zones") { result in
                let object = try result.object()
                return Result(
                    zoneID: try ZoneID(wire: try object.required("zoneID")), try WireLists.outcome(in: object, valueKey: "zone", RecordZone.init(wire:)))
            })
    }
}
