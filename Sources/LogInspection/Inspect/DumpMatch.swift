import RecordStore

/// One search criterion of `dump`: a header's or a field's value, equal to a text (`key=value`)
/// or containing it (`key~=value`).
///
/// ```swift
/// let deletes = try DumpMatch("event=delete")      // --header event=delete
/// let milk = try DumpMatch("title~=milk")          // --field title~=milk
/// ```
///
/// A field's value is compared as text: a string as itself, an integer or a double as JSON
/// writes it, a bool as `true`/`false`, a date as ISO 8601 with milliseconds in UTC
/// (`2024-05-01T12:00:00.000Z`), a reference as the record name it points to, bytes as base64,
/// a location as `latitude,longitude`; a list matches when one of its elements does. Comparison is
/// exact (case and accents count).
public struct DumpMatch: Sendable, Hashable, CustomStringConvertible {
    /// How the value is compared.
    public enum Comparison: String, Sendable, Hashable {
        /// `key=value`: the whole text equals `value`.
        case equals = "="
        /// `key~=value`: the text contains `value`.
        case contains = "~="
    }

    /// The header name or field key.
    public var key: String
    /// Equal or contains.
    public var comparison: Comparison
    /// The text compared with.
    public var value: String

    /// A criterion from its parts.
    public init(key: String, comparison: Comparison, value: String) {
        self.key = key
        self.comparison = comparison
        self.value = value
    }

    /// Parses `key=value` or `key~=value` (split at the first `=`; a `~` just before it makes
    /// it `contains`). The value may be empty and may contain `=`.
    ///
    /// - Throws: ``InspectError/badMatch(_:)`` when there is no `=` or no key.
    public init(_ text: String) throws(InspectError) {
        guard let equals = text.firstIndex(of: "=") else { throw .badMatch(text) }
        var key = text[..<equals]
        comparison = key.hasSuffix("~") ? .contains : .equals
        if comparison == .contains { key = key.dropLast() }
        guard !key.isEmpty else { throw .badMatch(text) }
        self.key = String(key)
        value = String(text[text.index(after: equals)...])
    }

    /// `key=value` or `key~=value`.
    public var description: String { key + comparison.rawValue + value }

    /// Whether `text` passes.
    public func matches(_ text: String) -> Bool {
        switch comparison {
        case .equals: text == value
        case .contains: value.isEmpty || text.contains(value)
        }
    }

    /// Whether the record has a header named ``key`` whose value (UTF-8) passes.
    public func matchesHeader(of record: InspectedRecord) -> Bool {
        record.record.headers.contains { header in
            header.key == key && header.value.map { matches(String(decoding: $0, as: UTF8.self)) } == true
        }
    }

    /// Whether the record's decoded fields have ``key`` with a value that passes.
    public func matchesField(of record: InspectedRecord) -> Bool {
        guard let value = record.event.fields?[key] else { return false }
        return matches(value)
    }

    private func matches(_ value: FieldValue) -> Bool {
        switch value {
        case .list(let elements): return elements.contains(where: matches)
        case .string(let text): return matches(text)
        case .reference(let reference): return matches(reference.recordID.recordName)
        case .location(let location): return matches("\(location.latitude),\(location.longitude)")
        case .date, .bytes, .int64, .double, .bool:
            // As dump's JSON writes them: dates {"date":ISO}, bytes {"bytes":base64}.
            switch FieldJSON.value(value) {
            case .object(let members): return members.first.map { member in
                    if case .string(let text) = member.1 { return matches(text) }
                    return false
                } ?? false
            case let json: return matches(json.compact())
            }
        }
    }
}
