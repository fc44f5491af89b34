import Foundation

/// The Swift types that map straight to a ``FieldValue`` (without going through their own
/// `Codable` implementation, which for `Date`, `Data`, ``Location`` or ``RecordID`` would not give
/// the field kind wanted).
enum FieldValueConversion {
    /// The field value of `value` when its type maps directly; nil for other types.
    static func fieldValue(of value: Any, path: [any CodingKey]) throws(RecordMappingError) -> FieldValue? {
        // Checked by exact type: `as? [UInt8]` also succeeds for any empty array.
        if type(of: value) == [UInt8].self, let bytes = value as? [UInt8] { return .bytes(bytes) }
        switch value {
        case let value as FieldValue: return value
        case let value as String: return .string(value)
        case let value as Bool: return .bool(value)
        case let value as Double: return .double(value)
        case let value as Float: return .double(Double(value))
        case let value as Date: return .date(value)
        case let value as Data: return .bytes(Array(value))
        case let value as RecordID: return .reference(Reference(recordID: value))
        case let value as Reference: return .reference(value)
        case let value as Location: return .location(value)
        case let value as any BinaryInteger:
            guard let integer = Int64(exactly: value) else {
                throw .valueOutOfRange(field: RecordMappingError.fieldName(path), value: "\(value)", type: "Int64")
            }
            return .int64(integer)
        default: return nil
        }
    }

    /// `value` as a `T` when `T` maps directly; nil for other types.
    ///
    /// Strict by kind, except that a `Double` (or `Float`) reads an `int64` and a `String` reads a
    /// reference's record name.
    static func value<T>(_ type: T.Type, from value: FieldValue, path: [any CodingKey]) throws(RecordMappingError) -> T? {
        let direct: Any? = try directValue(type, from: value, path: path)
        guard let direct else { return nil }
        guard let typed = direct as? T else {
            throw .unsupportedValue(field: RecordMappingError.fieldName(path), reason: "\(T.self) did not convert")
        }
        return typed
    }

    private static func directValue<T>(_ type: T.Type, from value: FieldValue, path: [any CodingKey]) throws(RecordMappingError) -> Any? {
        func mismatch(_ expected: String) -> RecordMappingError {
            .typeMismatch(field: RecordMappingError.fieldName(path), expected: expected, found: value.kind)
        }
        if type == FieldValue.self { return value }
        if type == String.self {
            switch value {
            case .string(let string): return string
            case .reference(let reference): return reference.recordID.recordName
            default: throw mismatch("a string")
            }
        }
        if type == Bool.self {
            guard case .bool(let bool) = value else { throw mismatch("a bool") }
            return bool
        }
        if type == Double.self || type == Float.self {
            let double: Double
            switch value {
            case .double(let value): double = value
            case .int64(let value): double = Double(value)
            default: throw mismatch("a double")
            }
            return type == Float.self ? Float(double) : double
        }
        if type == Date.self {
            guard case .date(let date) = value else { throw mismatch("a date") }
            return date
        }
        if type == Data.self || type == [UInt8].self {
            guard case .bytes(let bytes) = value else { throw mismatch("bytes") }
            return type == Data.self ? Data(bytes) : bytes
        }
        if type == RecordID.self || type == Reference.self {
            guard case .reference(let reference) = value else { throw mismatch("a reference") }
            return type == RecordID.self ? reference.recordID : reference
        }
        if type == Location.self {
            guard case .location(let location) = value else { throw mismatch("a location") }
            return location
        }
        if let integerType = type as? any FixedWidthInteger.Type {
            guard case .int64(let integer) = value else { throw mismatch("an int64") }
            guard let converted = convert(integer, to: integerType) else {
                throw .valueOutOfRange(field: RecordMappingError.fieldName(path), value: "\(integer)", type: "\(T.self)")
            }
            return converted
        }
        return nil
    }

    private static func convert<Integer: FixedWidthInteger>(_ value: Int64, to type: Integer.Type) -> Integer? {
        Integer(exactly: value)
    }
}
