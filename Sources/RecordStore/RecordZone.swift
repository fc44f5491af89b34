/// A record zone as CloudKit's `CKRecordZone`: its ID, what it can do, and — on a zone the store
/// returns — its current change token.
///
/// ```swift
/// let notes = try await database.save(RecordZone(zoneName: "Notes"))
/// let zones = try await database.allRecordZones()      // the default zone included
/// // Later: only what changed since the zone was fetched.
/// let changes = try await database.fetchZoneChanges(in: notes.zoneID, since: notes.currentChangeToken)
/// ```
///
/// Every zone of this store is what CloudKit calls a custom zone of a private database: it
/// reports its changes (``Database/fetchZoneChanges(in:since:resultsLimit:desiredKeys:)``) and
/// commits each request's part atomically. It cannot be shared.
public struct RecordZone: Sendable, Hashable, Codable {
    /// What a zone can do, as CloudKit's `CKRecordZone.Capabilities`.
    public struct Capabilities: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The zone reports its changes since a change token.
        public static let fetchChanges = Capabilities(rawValue: 1)
        /// A request's changes to the zone are written all or nothing.
        public static let atomic = Capabilities(rawValue: 2)
        /// The zone can be shared with other users: no zone of this store can.
        public static let sharing = Capabilities(rawValue: 4)
        /// What every zone of this store can do.
        public static let all: Capabilities = [.fetchChanges, .atomic]
    }

    /// The zone's name and owner.
    public var zoneID: ZoneID
    /// What the zone can do: ``Capabilities/all`` for every zone of this store.
    public var capabilities: Capabilities
    /// The zone's change token when the store returned this value: the point in the zone's
    /// history that ``Database/fetchZoneChanges(in:since:resultsLimit:desiredKeys:)`` continues
    /// from, as the `syncToken` of a zone fetched from CloudKit Web Services. Nil on a value the
    /// app made, and ignored when saved.
    ///
    /// A token from ``Database/recordZone(for:)`` taken before a write, passed to a change
    /// fetch after it, returns that write and nothing before it.
    public package(set) var currentChangeToken: ServerChangeToken?

    /// A zone with `zoneID`, able to do what every zone of this store can.
    public init(zoneID: ZoneID) {
        self.zoneID = zoneID
        capabilities = .all
    }

    /// The zone `zoneID` as the store reports it, with its current change token.
    package init(zoneID: ZoneID, currentChangeToken: ServerChangeToken) {
        self.init(zoneID: zoneID)
        self.currentChangeToken = currentChangeToken
    }

    /// A zone named `zoneName`, owned by the current user.
    public init(zoneName: String) {
        self.init(zoneID: ZoneID(zoneName: zoneName))
    }
}
