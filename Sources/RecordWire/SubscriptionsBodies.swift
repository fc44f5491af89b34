import RecordStore

/// The answer to `GET subscriptions/list`: every subscription, sorted by ID.
package struct SubscriptionsListResponse: Codable, Sendable {
    package var subscriptions: [Subscription]

    package init(subscriptions: [Subscription]) { self.subscriptions = subscriptions }
}

/// `POST subscriptions/modify`: subscriptions to save (create or replace) and delete, in order.
package struct SubscriptionsModifyRequest: Codable, Sendable {
    package enum OperationType: String, Codable, Sendable { case create, update, delete }

    /// One operation: `create` and `update` take `subscription`, `delete` takes `subscriptionID`.
    package struct Operation: Codable, Sendable {
        package var operationType: OperationType
        package var subscription: Subscription?
        package var subscriptionID: String?

        package static func save(_ subscription: Subscription) -> Operation {
            Operation(operationType: .create, subscription: subscription, subscriptionID: nil)
        }
        package static func delete(_ id: String) -> Operation { Operation(operationType: .delete, subscription: nil, subscriptionID: id) }
    }

    package var operations: [Operation]

    package init(operations: [Operation]) { self.operations = operations }
}

/// The answer to `subscriptions/modify`: one result per operation, in order.
package struct SubscriptionsModifyResponse: Codable, Sendable {
    package struct Result: Codable, Sendable {
        package var subscriptionID: String?
        package var subscription: Subscription?
        package var deleted: Bool?
        package var error: ErrorBody?

        package init(subscriptionID: String?, subscription: Subscription? = nil, deleted: Bool? = nil, error: ErrorBody? = nil) {
            self.subscriptionID = subscriptionID
            self.subscription = subscription
            self.deleted = deleted
            self.error = error
        }
    }

    package var subscriptions: [Result]

    package init(subscriptions: [Result]) { self.subscriptions = subscriptions }
}
