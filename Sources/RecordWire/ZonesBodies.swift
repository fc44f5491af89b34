import RecordStore

/// The answer to `GET zones/list`: every zone, sorted by name.
package struct ZonesListResponse: Codable, Sendable {
    package var zones: [RecordZone]

    package init(zones: [RecordZone]) { self.zones = zones }
}

/// `POST zones/modify`: zones to create (or return as they are) and to delete, in order.
package struct ZonesModifyRequest: Codable, Sendable {
    package enum OperationType: String, Codable, Sendable { case create, delete }

    /// One operation: `create` takes `zone`, `delete` takes `zoneID`.
    package struct Operation: Codable, Sendable {
        package var operationType: OperationType
        package var zone: RecordZone?
        package var zoneID: ZoneID?

        package static func create(_ zone: RecordZone) -> Operation { Operation(operationType: .create, zone: zone, zoneID: nil) }
        package static func delete(_ zoneID: ZoneID) -> Operation { Operation(operationType: .delete, zone: nil, zoneID: zoneID) }
    }

    package var operations: [Operation]

    package init(operations: [Operation]) { self.operations = operations }
}

/// The answer to `zones/modify`: one result per operation, in order — the zone created (or as it
/// was), the ID of the one deleted, or the operation's error.
package struct ZonesModifyResponse: Codable, Sendable {
    package struct Result: Codable, Sendable {
        package var zoneID: ZoneID?
        package var zone: RecordZone?
        package var deleted: Bool?
        package var error: ErrorBody?

        package init(zoneID: ZoneID?, zone: RecordZone? = nil, deleted: Bool? = nil, error: ErrorBody? = nil) {
            self.zoneID = zoneID
            self.zone = zone
            self.deleted = deleted
            self.error = error
        }
    }

    package var zones: [Result]

    package init(zones: [Result]) { self.zones = zones }
}
