import Foundation

/// Identifies a record: a record name, unique within its zone, and the zone's ID.
///
/// ```swift
/// let id = RecordID(recordName: "note-1", zoneID: ZoneID(zoneName: "Notes"))
/// let fresh = RecordID()                          // a UUID name in the default zone
/// ```
public struct RecordID: Sendable, Hashable, Codable {
    /// The record's name: 1 to 255 ASCII characters, not starting with `_` (CloudKit's rule).
    public var recordName: String
    /// The zone the record lives in.
    public var zoneID: ZoneID

    /// Creates a record ID. The name is checked by ``validate()`` (and by every save), not here.
    public init(recordName: String, zoneID: ZoneID = .default) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    /// Creates a record ID whose name is a new UUID string, as CloudKit does for new records.
    public init(zoneID: ZoneID = .default) {
        self.init(recordName: UUID().uuidString, zoneID: zoneID)
    }
}

extension RecordID {
    /// Hashes the record name only: the IDs one table holds are nearly always of one zone, and
    /// hashing the zone's two names too tripled the cost of every result dictionary. IDs of
    /// different zones still differ by `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordName)
    }
}

extension RecordID: CustomStringConvertible {
    /// `zone/recordName`, for messages and logs.
    public var description: String { "\(zoneID)/\(recordName)" }
}
