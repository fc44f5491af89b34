import Foundation

/// A geographic position, the part of CloudKit's `CLLocation` field values that RecordStore keeps.
///
/// Latitude must lie in -90...90 and longitude in -180...180 (checked when a record is validated).
/// Equality compares the stored bits, so `-0.0` and `0.0` differ, as they do when encoded.
public struct Location: Sendable, Codable {
    /// Degrees north of the equator, -90...90.
    public var latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public var longitude: Double

    /// Creates a location from degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both coordinates are within their ranges (and not NaN).
    public var isValid: Bool {
        (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
    }
}

extension Location: Hashable {
    public static func == (lhs: Location, rhs: Location) -> Bool {
        lhs.latitude.bitPattern == rhs.latitude.bitPattern
            && lhs.longitude.bitPattern == rhs.longitude.bitPattern
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(latitude.bitPattern)
        hasher.combine(longitude.bitPattern)
    }
}

extension Location {
    /// The mean radius of the Earth, in meters, that distances are measured on.
    static let earthRadius = 6_371_000.0

    /// The great-circle distance to `other` in meters (haversine, on a sphere of ``earthRadius``):
    /// what `distanceToLocation` predicates and location sort descriptors measure.
    public func distance(from other: Location) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (other.latitude - latitude) * radians
        let dLongitude = (other.longitude - longitude) * radians
        let a = sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * Self.earthRadius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}
