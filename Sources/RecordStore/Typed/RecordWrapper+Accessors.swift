import Foundation

// Typed reads of a wrapped record's fields: each returns nil when the field is absent or holds
// another kind, so `string(.title) ?? ""` reads a title with a default.
extension RecordWrapper {
    /// The string in field `key`.
    ///
    /// ```swift
    /// let title = note.string(.title) ?? "New Note"
    /// ```
    public func string(_ key: FieldKey) -> String? {
        if case .string(let value) = field(key) { value } else { nil }
    }

    /// The integer in field `key`.
    public func int(_ key: FieldKey) -> Int64? {
        if case .int64(let value) = field(key) { value } else { nil }
    }

    /// The number in field `key`: a double, or an integer converted.
    public func double(_ key: FieldKey) -> Double? {
        switch field(key) {
        case .double(let value): value
        case .int64(let value): Double(value)
        default: nil
        }
    }

    /// The Boolean in field `key`.
    public func bool(_ key: FieldKey) -> Bool? {
        if case .bool(let value) = field(key) { value } else { nil }
    }

    /// The date in field `key`.
    public func date(_ key: FieldKey) -> Date? {
        if case .date(let value) = field(key) { value } else { nil }
    }

    /// The bytes in field `key`.
    public func bytes(_ key: FieldKey) -> [UInt8]? {
        if case .bytes(let value) = field(key) { value } else { nil }
    }

    /// The location in field `key`.
    public func location(_ key: FieldKey) -> Location? {
        if case .location(let value) = field(key) { value } else { nil }
    }

    /// The list in field `key`.
    public func list(_ key: FieldKey) -> [FieldValue]? {
        if case .list(let value) = field(key) { value } else { nil }
    }

    /// The strings of the list in field `key`, nil unless every element is a string.
    ///
    /// ```swift
    /// let tags = note.strings(.tags) ?? []
    /// ```
    public func strings(_ key: FieldKey) -> [String]? {
        guard let list = list(key) else { return nil }
        var strings: [String] = []
        for element in list {
            guard case .string(let value) = element else { return nil }
            strings.append(value)
        }
        return strings
    }
}
