/// Why a Swift value could not be mapped to a ``Record`` or back, naming the field concerned.
///
/// ```swift
/// do {
///     let note = try Note(decoding: record)
/// } catch RecordMappingError.missingField(let field) {
///     print("the record has no \(field)")
/// }
/// ```
///
/// A field inside a list is named with its index, as in `tags[2]`.
public enum RecordMappingError: Error, Sendable, Hashable {
    /// The record has no value for a non-optional property.
    case missingField(String)
    /// The record holds a value of another kind than the property's type reads.
    case typeMismatch(field: String, expected: String, found: FieldValue.Kind)
    /// A number does not fit the property's type (an `Int8` from 300, a `UInt64` above `Int64.max`).
    case valueOutOfRange(field: String, value: String, type: String)
    /// The value has no field representation: a nested struct or dictionary, a nil inside a list, …
    case unsupportedValue(field: String, reason: String)
    /// The model encoded a key that its `Fields` enum does not list; add the case to `Fields`.
    case unknownField(String)
    /// The record is of another type than the model maps.
    case wrongRecordType(expected: String, found: String)
    /// The identifier property does not give a usable record ID (or another record's ID).
    case invalidIdentifier(field: String, reason: String)
    /// The query cannot be expressed: a filter or sort the store cannot run for this field.
    case unsupportedQuery(String)

    /// The field the error is about, when it is about one.
    public var field: String? {
        switch self {
        case .missingField(let field), .unknownField(let field): field
        case .typeMismatch(let field, _, _), .valueOutOfRange(let field, _, _), .unsupportedValue(let field, _),
            .invalidIdentifier(let field, _):
            field
        case .wrongRecordType, .unsupportedQuery: nil
        }
    }
}

extension RecordMappingError: CustomStringConvertible {
    /// A sentence saying what failed and what to do.
    public var description: String {
        switch self {
        case .missingField(let field):
            "The record has no field \"\(field)\", which is not optional; make the property optional or save the field."
        case .typeMismatch(let field, let expected, let found):
            "Field \"\(field)\" holds a \(found) value, but the property needs \(expected)."
        case .valueOutOfRange(let field, let value, let type):
            "Field \"\(field)\" holds \(value), which does not fit in \(type); use a wider type."
        case .unsupportedValue(let field, let reason):
            "Field \"\(field)\" cannot be mapped: \(reason)."
        case .unknownField(let field):
            "The model encodes \"\(field)\", which its Fields enum does not list; add a case for it."
        case .wrongRecordType(let expected, let found):
            "The record is a \"\(found)\", not a \"\(expected)\"."
        case .invalidIdentifier(let field, let reason):
            "The identifier \"\(field)\" cannot name the record: \(reason)."
        case .unsupportedQuery(let reason):
            "The query cannot run: \(reason)."
        }
    }
}

extension RecordMappingError {
    /// Renders a coding path as a field name: the key, then `[index]` for each list position.
    static func fieldName(_ path: [any CodingKey]) -> String {
        var name = ""
        for key in path {
            if let index = key.intValue, !name.isEmpty { name += "[\(index)]" } else { name += key.stringValue }
        }
        return name.isEmpty ? "(record)" : name
    }
}
