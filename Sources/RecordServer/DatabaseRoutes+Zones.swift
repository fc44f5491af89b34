import Hummingbird
import RecordStore
import RecordWire

extension DatabaseRoutes {
    /// `GET zones/list`: every zone.
    func listZones(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let (_, database) = try await database(context)
        return try JSONBody.response(ZonesListResponse(zones: try await database.allRecordZones()))
    }

    /// `POST zones/modify`: each operation in order, each with its own result. A malformed
    /// operation (a create without a zone, a delete without an ID) refuses the whole request
    /// before any runs.
    func modifyZones(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(ZonesModifyRequest.self, request)
        try checkItemCount(body.operations.count, "operations")
        for (index, operation) in body.operations.enumerated() {
            switch operation.operationType {
            case .create where operation.zone == nil:
                throw RecordStoreError(.invalidArguments, "operations[\(index)]: a create needs a zone.")
            case .delete where operation.zoneID == nil:
                throw RecordStoreError(.invalidArguments, "operations[\(index)]: a delete needs a zoneID.")
            default: break
            }
        }
        let (_, database) = try await database(context)
        var results: [ZonesModifyResponse.Result] = []
        for operation in body.operations {
            switch operation.operationType {
            case .create:
                guard let zone = operation.zone else { continue }
                do {
                    results.append(.init(zoneID: zone.zoneID, zone: try await database.save(zone)))
                } catch let error as RecordStoreError {
                    results.append(.init(zoneID: zone.zoneID, error: ErrorBody(error)))
                }
            case .delete:
                guard let zoneID = operation.zoneID else { continue }
                do {
                    try await database.deleteZone(zoneID)
                    results.append(.init(zoneID: zoneID, deleted: true))
                } catch let error as RecordStoreError {
                    results.append(.init(zoneID: zoneID, error: ErrorBody(error)))
                }
            }
        }
        return try JSONBody.response(ZonesModifyResponse(zones: results))
    }
}
