import RecordStore

/// One notification on a subscription's Server-Sent Events stream (`event: notification`, this
/// as the `data` line): `SubscriptionNotification`, field for field.
package struct NotificationEvent: Codable, Sendable, Hashable {
    package enum Reason: String, Codable, Sendable {
        case recordCreated, recordUpdated, recordDeleted
    }

    package var subscriptionID: String
    package var zoneIDs: [ZoneID]
    package var recordID: RecordID?
    package var reason: Reason?
    package var zoneDeleted: Bool

    package init(_ notification: SubscriptionNotification) {
        subscriptionID = notification.subscriptionID
        zoneIDs = notification.zoneIDs
        recordID = notification.recordID
        reason = notification.reason.map {
            switch $0 {
            case .recordCreated: .recordCreated
            case .recordUpdated: .recordUpdated
            case .recordDeleted: .recordDeleted
            }
        }
        zoneDeleted = notification.zoneDeleted
    }

    package var notification: SubscriptionNotification {
        SubscriptionNotification(
            subscriptionID: subscriptionID, zoneIDs: zoneIDs, recordID: recordID,
            reason: reason.map {
                switch $0 {
                case .recordCreated: .recordCreated
                case .recordUpdated: .recordUpdated
                case .recordDeleted: .recordDeleted
                }
            }, zoneDeleted: zoneDeleted)
    }

    /// The event names of the stream: `ready` once the subscription is listened to (every
    /// commit after it is delivered), `notification` for each notification.
    package static let readyEvent = "ready"
    package static let notificationEvent = "notification"
}
