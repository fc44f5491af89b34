import Hummingbird
import RecordStore
import RecordWire

extension DatabaseRoutes {
    /// `GET subscriptions/list`: every subscription.
    func listSubscriptions(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let (_, database) = try await database(context)
        return JSONBody.response(SubscriptionsListResponse(subscriptions: try await database.allSubscriptions()), to: request)
    }

    /// `POST subscriptions/modify`: each operation in order, each with its own result
    /// (`create` and `update` both save: a subscription with the same ID is replaced).
    func modifySubscriptions(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(SubscriptionsModifyRequest.self, request)
        try checkItemCount(body.operations.count, "operations")
        let (_, database) = try await database(context)
        var results: [SubscriptionsModifyResponse.Result] = []
        for operation in body.operations {
            switch operation {
            case .save(let subscription):
                results.append(.init(subscriptionID: subscription.id, try await Self.outcome { try await database.save(subscription) }))
            case .delete(let id):
                results.append(.init(subscriptionID: id, try await Self.outcome { try await database.deleteSubscription(id); return nil }))
            }
        }
        return JSONBody.response(SubscriptionsModifyResponse(subscriptions: results), to: request)
    }
}
