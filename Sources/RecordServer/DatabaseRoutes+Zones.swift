import Hummingbird
import RecordStore
import RecordWire

extension DatabaseRoutes {
    /// `GET zones/list`: every zone.
    func listZones(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let (_, database) = try await database(context)
        return JSONBody.response(ZonesListResponse(zones: try await database.allRecordZones()), to: request)
    }

    /// `POST zones/modify`: each operation in order, each with its own result. A malformed
    /// operation (a create without a zone, a delete without an ID) refuses the whole request
    /// before any runs: the body does not read.
    func modifyZones(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(ZonesModifyRequest.self, request)
        try checkItemCount(body.operations.count, "operations")
        let (_, database) = try await database(context)
        var results: [ZonesModifyResponse.Result] = []
        for operation in body.operations {
            switch operation {
            case .create(let zone):
                results.append(.init(zoneID: zone.zoneID, try await Self.outcome { try await database.save(zone) }))
            case .delete(let zoneID):
                results.append(.init(zoneID: zoneID, try await Self.outcome { try await database.deleteZone(zoneID); return nil }))
            }
        }
        return JSONBody.response(ZonesModifyResponse(zones: results), to: request)
    }

    /// What one operation of a batch did: its value, or the store's error (any other error
    /// fails the whole request).
    static func outcome<T>(_ operation: () async throws -> T) async throws -> Result<T, RecordStoreError> {
        do {
            return .success(try await operation())
        } catch let error as RecordStoreError {
            return .failure(error)
        }
    }
}
