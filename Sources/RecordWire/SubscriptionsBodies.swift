import RecordStore

/// The answer to `GET subscriptions/list`: every subscription, sorted by ID.
///
///     {"subscriptions": [subscription, …]}
package struct SubscriptionsListResponse: Sendable, WireCodable {
    package var subscriptions: [Subscription]

    package init(subscriptions: [Subscription]) { self.subscriptions = subscriptions }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.array("subscriptions", subscriptions) { $1.write(to: &$0) }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        self.init(subscriptions: try wire.object().list("subscriptions", Subscription.init(wire:)))
    }
}

/// `POST subscriptions/modify`: subscriptions to save (create or replace) and delete, in order.
///
///     {"operations": [{"operationType": "create", "subscription": {…}},
///                     {"operationType": "delete", "subscriptionID": "notes"}]}
///
/// `update` is accepted as a synonym of `create`: both save.
package struct SubscriptionsModifyRequest: Sendable, WireCodable {
    package enum Operation: Sendable {
        case save(Subscription)
        case delete(String)
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
            case .save(let subscription):
                writer.string("create")
                writer.key("subscription")
                subscription.write(to: &writer)
            case .delete(let id):
                writer.string("delete")
                writer.key("subscriptionID")
                writer.string(id)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        enum Kind { case save, delete }
        let body = try wire.object()
        try body.allowOnly(["operations"])
        self.init(
            operations: try body.list("operations") { operation in
                let object = try operation.object()
                try object.allowOnly(["operationType", "subscription", "subscriptionID"])
                switch try object.required("operationType").oneOf(["create": Kind.save, "update": .save, "delete": .delete]) {
                case .save: return .save(try Subscription(wire: try object.required("subscription")))
                case .delete: return .delete(try object.required("subscriptionID").string())
                }
            })
    }
}

/// The answer to `subscriptions/modify`: one result per operation, in order.
///
///     {"subscriptions": [{"subscriptionID": "…", "subscription": {…}},
///                        {"subscriptionID": "…", "deleted": true},
///                        {"subscriptionID": "…", "error": {error}}]}
package struct SubscriptionsModifyResponse: Sendable, WireCodable {
    package struct Result: Sendable {
        package var subscriptionID: String
        /// The subscription saved; nil for a delete.
        package var outcome: Swift.Result<Subscription?, RecordStoreError>

        package init(subscriptionID: String, _ outcome: Swift.Result<Subscription?, RecordStoreError>) {
            self.subscriptionID = subscriptionID
            self.outcome = outcome
        }
    }

    package var subscriptions: [Result]

    package init(subscriptions: [Result]) { self.subscriptions = subscriptions }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("subscriptions")
        writer.beginArray()
        for result in subscriptions {
            writer.beginObject()
            writer.key("subscriptionID")
            writer.string(result.subscriptionID)
            WireLists.writeOutcome(result.outcome, valueKey: "subscription", to: &writer) { $1.write(to: &$0) }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        self.init(
            subscriptions: try wire.object().list("subscriptions") { result in
                let object = try result.object()
                return Result(
                    subscriptionID: try object.required("subscriptionID").string(),
                    try WireLists.outcome(in: object, valueKey: "subscription", Subscription.init(wire:)))
            })
    }
}
