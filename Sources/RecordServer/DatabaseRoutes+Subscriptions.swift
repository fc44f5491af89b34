import Hummingbird
import RecordStore
import RecordWire

extension DatabaseRoutes {
    /// `GET subscriptions/list`: every subscription.
    func listSubscriptions(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let (_, database) = try await database(context)
        return try JSONBody.response(SubscriptionsListResponse(subscriptions: try await database.allSubscriptions()))
    }

    /// `POST subscriptions/modify`: each operation in order, each with its own result
    /// (`create` and `update` both save: a subscription with the same ID is replaced).
    func modifySubscriptions(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let body = try await decode(SubscriptionsModifyRequest.self, request)
        try checkItemCount(body.operations.count, "operations")
        for (index, operation) in body.operations.enumerated() {
            switch operation.operationType {
            case .create, .update:
                if operation.subscription == nil {
                    throw RecordStoreError(.invalidArguments, "operations[\(index)]: a \(operation.operationType.rawValue) needs a subscription.")
                }
            case .delete:
                if operation.subscriptionID == nil {
                    throw RecordStoreError(.invalidArguments, "operations[\(index)]: a delete needs a subscriptionID.")
                }
            }
        }
        let (_, database) = try await database(context)
        var results: [SubscriptionsModifyResponse.Result] = []
        for operation in body.operations {
            switch operation.operationType {
            case .create, .update:
                guard let subscription = operation.subscription else { continue }
                do {
                    results.append(.init(subscriptionID: subscription.id, subscription: try await database.save(subscription)))
                } catch let error as RecordStoreError {
                    results.append(.init(subscriptionID: subscription.id, error: ErrorBody(error)))
                }
            case .delete:
                guard let id = operation.subscriptionID else { continue }
                do {
                    try await database.deleteSubscription(id)
                    results.append(.init(subscriptionID: id, deleted: true))
                } catch let error as RecordStoreError {
                    results.append(.init(subscriptionID: id, error: ErrorBody(error)))
                }
            }
        }
        return try JSONBody.response(SubscriptionsModifyResponse(subscriptions: results))
    }
}
