import Foundation
import RecordLog

extension Database {
    /// Saves a subscription (replacing one with the same ID), durably, in the system log.
    ///
    /// - Throws: `invalidArguments` for an empty or too long ID, a query subscription without
    ///   firing options (as CloudKit refuses one) or one whose query holds a value that is not
    ///   finite; `zoneNotFound` for a zone that does not exist.
    @discardableResult
    public func save(_ subscription: Subscription) async throws -> Subscription {
        try checkOpen()
        guard !subscription.id.isEmpty, subscription.id.utf8.count <= RecordLimits.maximumNameLength else {
            throw RecordStoreError(.invalidArguments, "A subscription ID must be 1 to \(RecordLimits.maximumNameLength) bytes long.")
        }
        if case .query(_, _, let firesOn) = subscription.kind, firesOn.isEmpty {
            throw RecordStoreError(
                .invalidArguments,
                "Query subscription \"\(subscription.id)\" fires on nothing: give it firesOn .recordCreation, .recordUpdate "
                    + "and/or .recordDeletion (or .all).")
        }
        switch subscription.kind {
        case .zone(let zoneID), .query(_, zoneID: let zoneID?, _): _ = try zone(zoneID)
        case .database, .query: break
        }
        let value: Data
        do {
            value = try JSONEncoder.sortedKeys.encode(subscription)
        } catch {
            // A query holding a value JSON cannot carry (an infinite or NaN number or location).
            throw RecordStoreError(
                .invalidArguments,
                "Subscription \"\(subscription.id)\" holds a value that cannot be stored (a number or location that is not finite); use finite values.")
        }
        return try await administration.run {
            var batch = RecordBatchBuilder()
            batch.append(key: Self.subscriptionKey(subscription.id), value: Array(value), headers: StoredEvent.headers(.saveSubscription))
            _ = try await system.append(batch)
            subscriptions.set(subscription)
            return subscription
        }
    }

    /// Deletes a subscription; its notification streams end.
    ///
    /// - Throws: `unknownItem` when there is no such subscription.
    public func deleteSubscription(_ id: String) async throws {
        try checkOpen()
        try await administration.run {
            guard subscriptions.subscription(id) != nil else {
                throw RecordStoreError(.unknownItem, "No subscription has the ID \"\(id)\"; list them with allSubscriptions().")
            }
            var batch = RecordBatchBuilder()
            batch.append(key: Self.subscriptionKey(id), value: nil, headers: StoredEvent.headers(.deleteSubscription))
            _ = try await system.append(batch)
            subscriptions.remove(id)
        }
    }

    /// Every saved subscription, sorted by ID.
    public func allSubscriptions() async throws -> [Subscription] {
        try checkOpen()
        try await refreshBeforeRead()
        return subscriptions.all
    }

    /// The notifications of a saved subscription, from now on, each after its commit is durable.
    /// The stream ends when the subscription is deleted or the database closes.
    ///
    /// - Throws: `unknownItem` when there is no such subscription.
    public func notifications(for subscriptionID: String) throws -> AsyncStream<SubscriptionNotification> {
        try checkOpen()
        guard let subscription = subscriptions.subscription(subscriptionID) else {
            throw RecordStoreError(.unknownItem, "No subscription has the ID \"\(subscriptionID)\"; save it first.")
        }
        return subscriptions.stream(for: subscription)
    }

    /// Replays the subscription events of the system log.
    func loadSubscriptions() throws {
        try system.forEachRecord(from: 0, to: nil) { event in
            guard let key = event.keyString, key.hasPrefix(Self.subscriptionPrefix) else { return true }
            switch StoredEvent.kind(of: event) {
            case .saveSubscription?:
                if let value = event.value {
                    subscriptions.set(try JSONDecoder().decode(Subscription.self, from: Data(value)))
                }
            case .deleteSubscription?:
                subscriptions.remove(String(key.dropFirst(Self.subscriptionPrefix.count)))
            default:
                break
            }
            return true
        }
    }

    static let subscriptionPrefix = "subscription/"

    static func subscriptionKey(_ id: String) -> String { subscriptionPrefix + id }
}

extension JSONEncoder {
    static var sortedKeys: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
