/// A standing request to be told about changes, as CloudKit's `CKSubscription`: stored in the
/// log, so it outlives the process; notifications are delivered in-process by
/// `Database.notifications(for:)`.
public struct Subscription: Sendable, Hashable, Codable, Identifiable {
    /// When a query subscription fires.
    public struct FiresOn: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let recordCreation = FiresOn(rawValue: 1)
        public static let recordUpdate = FiresOn(rawValue: 2)
        public static let recordDeletion = FiresOn(rawValue: 4)
        public static let all: FiresOn = [.recordCreation, .recordUpdate, .recordDeletion]
    }

    public enum Kind: Sendable, Hashable, Codable {
        /// Once per commit that changes any zone.
        case database
        /// Once per commit that changes this zone.
        case zone(ZoneID)
        /// Once per record change that matches the query, in one zone or (nil) all zones. A
        /// deletion matches when the record's type does (its fields are gone).
        case query(RecordQuery, zoneID: ZoneID?, firesOn: FiresOn)
    }

    /// The subscription's name, unique in the database.
    public var id: String
    public var kind: Kind

    public init(id: String, kind: Kind) {
        self.id = id
        self.kind = kind
    }
}

/// What a subscription tells.
public struct SubscriptionNotification: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        case recordCreated, recordUpdated, recordDeleted
    }

    public var subscriptionID: String
    /// The zones the commit changed (one for zone and query notifications).
    public var zoneIDs: [ZoneID]
    /// For query notifications: the record and what happened to it.
    public var recordID: RecordID?
    public var reason: Reason?
    /// Whether the zone itself was deleted (database notifications).
    public var zoneDeleted: Bool

    /// A notification, as a subscription delivers one (for fakes in an app's tests).
    public init(subscriptionID: String, zoneIDs: [ZoneID], recordID: RecordID? = nil, reason: Reason? = nil, zoneDeleted: Bool = false) {
        self.subscriptionID = subscriptionID
        self.zoneIDs = zoneIDs
        self.recordID = recordID
        self.reason = reason
        self.zoneDeleted = zoneDeleted
    }
}
