import Foundation

/// The value of one field of a record: CloudKit's field types, and lists of them.
///
/// ```swift
/// record["title"] = .string("Groceries")
/// record["tags"] = .list([.string("home"), .string("weekly")])
/// ```
///
/// Dates are stored as whole milliseconds since 1970 (the nearest one), between
/// `Date.distantPast` and `Date.distantFuture`; a date read back may differ from the one saved
/// by less than half a millisecond. Equality compares what is stored: doubles by their bits
/// (`-0.0 != 0.0`, `nan == nan`), strings by their UTF-8 bytes and dates by millisecond, so
/// equal values encode to equal bytes.
public enum FieldValue: Sendable, Codable {
    /// Text, any valid Unicode.
    case string(String)
    /// A 64-bit signed integer.
    case int64(Int64)
    /// A 64-bit floating-point number, stored bit for bit.
    case double(Double)
    /// A Boolean.
    case bool(Bool)
    /// A point in time, stored with millisecond precision.
    case date(Date)
    /// Raw bytes.
    case bytes([UInt8])
    /// A link to another record of the same zone.
    case reference(Reference)
    /// A latitude and longitude.
    case location(Location)
    /// A list whose elements are all of one kind (lists may nest up to ``RecordLimits/maximumListDepth``).
    case list([FieldValue])

    /// The kind of a value, without its payload: one case per case of ``FieldValue``.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// ``FieldValue/string(_:)``.
        case string
        /// ``FieldValue/int64(_:)``.
        case int64
        /// ``FieldValue/double(_:)``.
        case double
        /// ``FieldValue/bool(_:)``.
        case bool
        /// ``FieldValue/date(_:)``.
        case date
        /// ``FieldValue/bytes(_:)``.
        case bytes
        /// ``FieldValue/reference(_:)``.
        case reference
        /// ``FieldValue/location(_:)``.
        case location
        /// ``FieldValue/list(_:)``, whatever its elements.
        case list
    }

    /// This value's kind: `.list` for any list, whatever its elements.
    public var kind: Kind {
        switch self {
        case .string: .string
        case .int64: .int64
        case .double: .double
        case .bool: .bool
        case .date: .date
        case .bytes: .bytes
        case .reference: .reference
        case .location: .location
        case .list: .list
        }
    }
}
