import Hummingbird
import RecordStore
import RecordWire

extension DatabaseRoutes {
    /// `POST changes/zone`: several zones' changes, each zone's page or error in the request's
    /// order. Each page is written as JSON straight from the records the fetch reads in place,
    /// and ends with `moreComing` once its records reach the configured byte budget.
    func zoneChanges(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(ZoneChangesRequest.self, request)
        try checkItemCount(body.zones.count, "zones")
        guard Set(body.zones.map { $0.zoneID }).count == body.zones.count else {
            throw RecordStoreError(.invalidArguments, "A zone is named twice in one fetch of zone changes; name each zone once.")
        }
        let (_, database) = try await database(context)
        var zones: [[UInt8]] = []
        for zone in body.zones {
            zones.append(try await Self.page(of: zone, in: database, pageBytes: configuration.maximumPageBytes))
        }
        return JSONBody.response(RawZoneChanges(zones: zones), to: request)
    }

    /// One zone's entry of the answer: its page, or its error.
    private static func page(of zone: ZoneChangesRequest.Zone, in database: Database, pageBytes: Int) async throws -> [UInt8] {
        var page = ZoneChangesPageWriter(zoneID: zone.zoneID)
        let desiredKeys = zone.configuration.desiredKeys.map(Set.init)
        do {
            let end = try await database.fetchZoneChanges(
                in: zone.zoneID, since: zone.configuration.previousServerChangeToken, resultsLimit: zone.configuration.resultsLimit,
                pageBytes: pageBytes, recordChanged: { page.add($0.materialized(), desiredKeys: desiredKeys) },
                recordDeleted: { page.add($0) })
            return page.finish(changeToken: end.changeToken, moreComing: end.moreComing, clientChangeToken: end.clientChangeTokenData)
        } catch let error as RecordStoreError {
            return ZoneChangesPageWriter.failure(zoneID: zone.zoneID, error)
        }
    }

    /// `POST changes/database`: the zones changed and deleted since a database token.
    func databaseChanges(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(DatabaseChangesRequest.self, request)
        let (_, database) = try await database(context)
        return JSONBody.response(DatabaseChangesResponse(try await database.fetchDatabaseChanges(since: body.syncToken)), to: request)
    }
}

/// The `changes/zone` answer from zone entries already written.
private struct RawZoneChanges: WireEncodable {
    let zones: [[UInt8]]

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("zones")
        writer.beginArray()
        for zone in zones { writer.raw(zone) }
        writer.endArray()
        writer.endObject()
    }
}
