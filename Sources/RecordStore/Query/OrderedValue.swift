import Foundation

/// A field value as the query engine compares, sorts and indexes it: one total order over every
/// value a field can hold, and the absence of one.
///
/// The order, ascending: a missing field first, then numbers (`int64` and `double` together, by
/// value), NaN, strings (by UTF-8 bytes, which is Unicode scalar order), dates, Booleans (false
/// first), bytes, references (by zone name, then record name), locations (by latitude, then
/// longitude), and lists (element by element, a shorter prefix first). Two values are equal
/// exactly when they hold the same stored value, except that numbers compare by value across
/// kinds (`3 == 3.0`, `-0.0 == 0.0`) and references ignore their action.
enum OrderedValue: Sendable, Hashable, Comparable {
    case missing
    case number(NumericValue)
    case nan
    case string(ByteString)
    /// Milliseconds since 1970, as stored.
    case date(Int64)
    case bool(Bool)
    case bytes([UInt8])
    case reference(zone: ByteString, name: ByteString)
    case location(latitude: Double, longitude: Double)
    case list([OrderedValue])

    /// The value of a field, or `.missing` for none.
    init(_ value: FieldValue?) {
        guard let value else {
            self = .missing
            return
        }
        switch value {
        case .string(let string): self = .string(ByteString(string))
        case .int64(let integer): self = .number(.integer(integer))
        case .double(let double): self = NumericValue(double).map(OrderedValue.number) ?? .nan
        case .bool(let bool): self = .bool(bool)
        case .date(let date): self = .date(Self.milliseconds(date))
        case .bytes(let bytes): self = .bytes(bytes)
        case .reference(let reference):
            self = .reference(zone: ByteString(reference.recordID.zoneID.zoneName), name: ByteString(reference.recordID.recordName))
        case .location(let location):
            // Adding zero turns -0.0 into 0.0, so equal coordinates hash equal.
            self = .location(latitude: location.latitude + 0, longitude: location.longitude + 0)
        case .list(let values): self = .list(values.map { OrderedValue($0) })
        }
    }

    /// A date's stored millisecond; dates outside the storable range clamp to its ends.
    private static func milliseconds(_ date: Date) -> Int64 {
        if let milliseconds = MillisecondDate.milliseconds(of: date) { return milliseconds }
        return date.timeIntervalSince1970 > 0 ? MillisecondDate.maximum + 1 : MillisecondDate.minimum - 1
    }

    /// Values of one family can be ordered against each other by `<`, `<=`, `>`, `>=` predicates.
    enum Family: Int, Sendable, Comparable {
        case missing, number, nan, string, date, bool, bytes, reference, location, list

        static func < (lhs: Family, rhs: Family) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    var family: Family {
        switch self {
        case .missing: .missing
        case .number: .number
        case .nan: .nan
        case .string: .string
        case .date: .date
        case .bool: .bool
        case .bytes: .bytes
        case .reference: .reference
        case .location: .location
        case .list: .list
        }
    }

    /// Whether the two values are of one kind for `==` / `!=`: the same family, numbers and NaN
    /// counting as one.
    func isSameKind(as other: OrderedValue) -> Bool {
        let numeric: Set<Family> = [.number, .nan]
        return family == other.family || (numeric.contains(family) && numeric.contains(other.family))
    }

    static func < (lhs: OrderedValue, rhs: OrderedValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): a < b
        case (.string(let a), .string(let b)): a < b
        case (.date(let a), .date(let b)): a < b
        case (.bool(let a), .bool(let b)): !a && b
        case (.bytes(let a), .bytes(let b)): a.lexicographicallyPrecedes(b)
        case (.reference(let zoneA, let nameA), .reference(let zoneB, let nameB)):
            zoneA == zoneB ? nameA < nameB : zoneA < zoneB
        case (.location(let latA, let lonA), .location(let latB, let lonB)): (latA, lonA) < (latB, lonB)
        case (.list(let a), .list(let b)): a.lexicographicallyPrecedes(b)
        default: lhs.family < rhs.family
        }
    }
}
