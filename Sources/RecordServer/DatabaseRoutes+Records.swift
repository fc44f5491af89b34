import Foundation
import Hummingbird
import RecordStore
import RecordWire

extension DatabaseRoutes {
    /// `POST records/modify`: `Database.modifyRecords`; each item's result in the request's
    /// order. An atomic request that fails answers `PARTIAL_FAILURE` with each item's error.
    func modifyRecords(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(ModifyRecordsRequest.self, request)
        let (name, database) = try await database(context)
        let result = try await database.modifyRecords(
            saving: body.saves, deleting: body.deletes, savePolicy: body.savePolicy, atomically: body.atomic,
            clientChangeTokenData: body.clientChangeToken)
        let saved = body.saves.map { record in
            RecordResult(
                recordID: record.recordID,
                result.saveResults[record.recordID] ?? .failure(RecordStoreError(.internalError, "No result for \(record.recordID).", recordID: record.recordID)))
        }
        let deleted = body.deletes.map { id in
            DeleteResult(recordID: id, result.deleteResults[id] ?? .failure(RecordStoreError(.internalError, "No result for \(id).", recordID: id)))
        }
        let written = result.saveResults.values.count { (try? $0.get()) != nil } + result.deleteResults.values.count { (try? $0.get()) != nil }
        if written > 0 { metrics.recordCommit(database: name, items: written) }
        return JSONBody.response(ModifyRecordsResponse(saved: saved, deleted: deleted), to: request)
    }

    /// `POST records/lookup`: `Database.records(for:desiredKeys:)`, in the request's order.
    func lookupRecords(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(LookupRecordsRequest.self, request)
        try checkItemCount(body.recordIDs.count, "records")
        let (_, database) = try await database(context)
        let found = try await database.records(for: body.recordIDs, desiredKeys: body.desiredKeys)
        let results = body.recordIDs.map { id in
            RecordResult(recordID: id, found[id] ?? .failure(RecordStoreError(.unknownItem, "Record \(id) does not exist.", recordID: id)))
        }
        return JSONBody.response(LookupRecordsResponse(results: results), to: request)
    }

    /// `POST records/query`: a query's first page, or the next one from a continuation marker.
    func queryRecords(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(QueryRecordsRequest.self, request)
        let limit = body.resultsLimit ?? 100
        let (_, database) = try await database(context)
        let page: QueryResult
        if let marker = body.continuationMarker {
            guard let data = Data(base64Encoded: marker) else {
                throw RecordStoreError(.invalidArguments, "continuationMarker must be the base64 text a previous page answered.")
            }
            page = try await database.records(continuingMatchFrom: try QueryCursor(data: data), desiredKeys: body.desiredKeys, resultsLimit: limit)
        } else if let query = body.query {
            page = try await database.records(matching: query, inZoneWith: body.zoneID, desiredKeys: body.desiredKeys, resultsLimit: limit)
        } else {
            throw RecordStoreError(.invalidArguments, "Send a query, or the continuationMarker of the previous page.")
        }
        return JSONBody.response(
            QueryRecordsResponse(
                results: page.matchResults.map { RecordResult(recordID: $0.0, $0.1) },
                continuationMarker: page.cursor?.data.base64EncodedString()), to: request)
    }
}
