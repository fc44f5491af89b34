/// Identifies a record zone: a zone name and the name of the user who owns it.
///
/// A zone is where records live; in the log a zone is one partition.
///
/// ```swift
/// let notes = ZoneID(zoneName: "Notes")          // owned by the current user
/// let defaultZone = ZoneID.default              // "_defaultZone"
/// ```
public struct ZoneID: Sendable, Hashable, Codable {
    /// The zone's name: 1 to 255 ASCII characters, not starting with `_` (except the default zone's).
    public var zoneName: String
    /// The owner's name; ``RecordLimits/defaultOwnerName`` (`"__defaultOwner__"`) means the current user.
    public var ownerName: String

    /// Creates a zone ID. Names are checked by ``validate()`` (and by every save), not here.
    public init(zoneName: String, ownerName: String = RecordLimits.defaultOwnerName) {
        self.zoneName = zoneName
        self.ownerName = ownerName
    }

    /// The default zone of the current user, which always exists.
    public static let `default` = ZoneID(zoneName: RecordLimits.defaultZoneName)

    /// Whether this is the default zone.
    public var isDefault: Bool { self == .default }
}

extension ZoneID: CustomStringConvertible {
    /// `zoneName` alone for the current user's zones, else `ownerName/zoneName`.
    public var description: String {
        ownerName == RecordLimits.defaultOwnerName ? zoneName : "\(ownerName)/\(zoneName)"
    }
}
