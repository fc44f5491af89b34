/// A JSON value as parsed from a request or an answer: what ``JSONParser`` returns and the wire
/// types read with ``WireReader``.
///
/// A number keeps its text, so that the reader decides how to read it: an `INT64` exactly as
/// written (never through a double), a `DOUBLE` to the nearest double.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number's text, as sent (it matched JSON's number grammar).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// An object's members in the order sent; objects whose keys repeat are refused by the
    /// parser. (An array, not a dictionary: a body's objects are small, and hashing every key
    /// of every record cost more than reading them.)
    case object([JSONMember])

    /// What the value is, in the words an error message uses.
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One member of a JSON object.
package struct JSONMember: Sendable, Equatable {
    package var key: String
    package var value: JSONValue

    package init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
