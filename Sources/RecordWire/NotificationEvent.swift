import RecordStore

/// One notification on a subscription's Server-Sent Events stream (`event: notification`, this
/// as the `data` line): `SubscriptionNotification`, field for field.
///
///     {"subscriptionID": "notes", "zoneIDs": [{"zoneName": "Notes"}],
///      "recordID": {"recordName": "n1", "zoneID": {…}}, "reason": "create", "zoneDeleted": false}
///
/// `reason` is `create`, `update` or `delete` (a query subscription's), as `firesOn` names them.
package struct NotificationEvent: Sendable, WireCodable {
    private static let reasons: KeyValuePairs<String, SubscriptionNotification.Reason> = [
        "create": .recordCreated, "update": .recordUpdated, "delete": .recordDeleted,
    ]

    package var notification: SubscriptionNotification

    package init(_ notification: SubscriptionNotification) { self.notification = notification }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("subscriptionID")
        writer.string(notification.subscriptionID)
        writer.array("zoneIDs", notification.zoneIDs) { $1.write(to: &$0) }
        if let recordID = notification.recordID {
            writer.key("recordID")
            recordID.write(to: &writer)
        }
        if let reason = notification.reason {
            writer.key("reason")
            writer.string(Self.reasons.first { $0.value == reason }?.key ?? "update")
        }
        writer.key("zoneDeleted")
        writer.bool(notification.zoneDeleted)
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        self.init(
            SubscriptionNotification(
                subscriptionID: try object.required("subscriptionID").string(), zoneIDs: try object.list("zoneIDs", ZoneID.init(wire:)),
                recordID: try object.optional("recordID").map(RecordID.init(wire:)), reason: try object.optional("reason")?.oneOf(Self.reasons),
                zoneDeleted: try object.optional("zoneDeleted")?.bool() ?? false))
    }

    /// The event names of the stream: `ready` once the subscription is listened to (every
    /// commit after it is delivered), `notification` for each notification.
    package static let readyEvent = "ready"
    package static let notificationEvent = "notification"
}
