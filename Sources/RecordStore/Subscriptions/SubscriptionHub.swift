import StorageKit

/// Delivers notifications to in-process listeners, after the commit they describe is durable.
final class SubscriptionHub: Sendable {
    private struct Listener {
        /// The subscription's ID: a replaced subscription is looked up anew on every delivery.
        var subscriptionID: String
        var continuation: AsyncStream<SubscriptionNotification>.Continuation
    }

    private struct State {
        var subscriptions: [String: Subscription] = [:]
        var listeners: [Int: Listener] = [:]
        var nextID = 0
    }

    private let state = LockedValue(State())

    var all: [Subscription] { state.withLock { $0.subscriptions.values.sorted { $0.id < $1.id } } }

    func subscription(_ id: String) -> Subscription? { state.withLock { $0.subscriptions[id] } }

    func set(_ subscription: Subscription) { state.withLock { $0.subscriptions[subscription.id] = subscription } }

    func remove(_ id: String) {
        let ended = state.withLock { state -> [AsyncStream<SubscriptionNotification>.Continuation] in
            state.subscriptions[id] = nil
            let ended = state.listeners.filter { $0.value.subscriptionID == id }
            for key in ended.keys { state.listeners[key] = nil }
            return ended.values.map(\.continuation)
        }
        for continuation in ended { continuation.finish() }
    }

    /// A stream of the subscription's notifications; it ends when the subscription is deleted or
    /// the database closes.
    func stream(for subscription: Subscription) -> AsyncStream<SubscriptionNotification> {
        let (stream, continuation) = AsyncStream<SubscriptionNotification>.makeStream(bufferingPolicy: .unbounded)
        let key = state.withLock { state in
            state.nextID += 1
            state.listeners[state.nextID] = Listener(subscriptionID: subscription.id, continuation: continuation)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.listeners.removeValue(forKey: key) }
        }
        return stream
    }

    /// Notifies about one zone's commit. `changes` lists what the commit changed, in order; it
    /// is called only when a query subscription is listened to, at most once: a commit nobody
    /// asks about builds no list.
    func publish(in zoneID: ZoneID, _ changes: () -> [RecordChange]) {
        var listed: [RecordChange]?
        deliver { subscription in
            switch subscription.kind {
            case .database, .zone(zoneID):
                return [SubscriptionNotification(subscriptionID: subscription.id, zoneIDs: [zoneID], zoneDeleted: false)]
            case .zone:
                return []
            case .query(let query, let zone, let firesOn):
                guard zone == nil || zone == zoneID else { return [] }
                let all = listed ?? changes()
                listed = all
                return all.compactMap { change in
                    let reason: SubscriptionNotification.Reason
                    switch change {
                    case .saved(let record, let created):
                        guard query.matches(record) else { return nil }
                        reason = created ? .recordCreated : .recordUpdated
                        guard firesOn.contains(created ? .recordCreation : .recordUpdate) else { return nil }
                    case .deleted(_, let recordType):
                        guard recordType == query.recordType, firesOn.contains(.recordDeletion) else { return nil }
                        reason = .recordDeleted
                    }
                    return SubscriptionNotification(
                        subscriptionID: subscription.id, zoneIDs: [zoneID], recordID: change.recordID, reason: reason, zoneDeleted: false)
                }
            }
        }
    }

    /// Notifies database subscriptions that a zone was created or deleted.
    func publishZoneChange(_ zoneID: ZoneID, deleted: Bool) {
        deliver { subscription in
            guard case .database = subscription.kind else { return [] }
            return [SubscriptionNotification(subscriptionID: subscription.id, zoneIDs: [zoneID], zoneDeleted: deleted)]
        }
    }

    private func deliver(_ notifications: (Subscription) -> [SubscriptionNotification]) {
        let listeners = state.withLock { state in
            state.listeners.values.compactMap { listener in
                state.subscriptions[listener.subscriptionID].map { (subscription: $0, continuation: listener.continuation) }
            }
        }
        for listener in listeners {
            for notification in notifications(listener.subscription) { listener.continuation.yield(notification) }
        }
    }

    func finishAll() {
        let listeners = state.withLock { state in
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.continuation.finish() }
    }
}
