import Hummingbird
import RecordStore
import RecordWire

extension DatabaseRoutes {
    /// `POST changes/zone`: several zones' changes, each zone's page or error in the request's order.
    func zoneChanges(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(ZoneChangesRequest.self, request)
        try checkItemCount(body.zones.count, "zones")
        let (_, database) = try await database(context)
        var configurations: [ZoneID: ZoneChangesConfiguration] = [:]
        for zone in body.zones { configurations[zone.zoneID] = zone.configuration }
        let results = try await database.fetchZoneChanges(inZonesWith: body.zones.map(\.zoneID), configurations: configurations)
        let zones = body.zones.map { zone in
            ZoneChangesResponse.Zone(
                zoneID: zone.zoneID,
                results[zone.zoneID] ?? .failure(RecordStoreError(.internalError, "No result for zone \(zone.zoneID).", zoneID: zone.zoneID)))
        }
        return try JSONBody.response(ZoneChangesResponse(zones: zones))
    }

    /// `POST changes/database`: the zones changed and deleted since a database token.
    func databaseChanges(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(DatabaseChangesRequest.self, request)
        let (_, database) = try await database(context)
        return try JSONBody.response(DatabaseChangesResponse(try await database.fetchDatabaseChanges(since: body.syncToken)))
    }
}
