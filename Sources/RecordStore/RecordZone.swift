/// A record zone as CloudKit's `CKRecordZone`: its ID and what it can do.
///
/// ```swift
/// let notes = try await database.save(RecordZone(zoneName: "Notes"))
/// let zones = try await database.allRecordZones()      // the default zone included
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

    /// A zone with `zoneID`, able to do what every zone of this store can.
    public init(zoneID: ZoneID) {
        self.zoneID = zoneID
        capabilities = .all
    }

    /// A zone named `zoneName`, owned by the current user.
    public init(zoneName: String) {
        self.init(zoneID: ZoneID(zoneName: zoneName))
    }
}
