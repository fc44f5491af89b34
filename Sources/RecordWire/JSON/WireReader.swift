import Foundation

/// Reads one parsed JSON value as a wire type expects it, knowing where it stands in the body
/// so that every error names its key path.
///
/// ```swift
/// let body = try WireReader(parsing: bytes).object()
/// let name = try body.required("recordName").string()
/// let limit = try body.optional("resultsLimit")?.int()
/// ```
package struct WireReader: Sendable {
    package let value: JSONValue
    /// Where the value stands in its container (nil for the body), and the container's place:
    /// the key path is spelled only when an error names it.
    private let step: WirePath.Step?
    private let container: WirePath?

    package init(_ value: JSONValue) {
        self.init(value, step: nil, in: nil)
    }

    fileprivate init(_ value: JSONValue, step: WirePath.Step?, in container: WirePath?) {
        self.value = value
        self.step = step
        self.container = container
    }

    /// The key path of this value (`saves[0].fields`); empty for the body.
    package var path: String { WirePath.spell(step, in: container) }

    /// This value's place, for the readers of its members or elements.
    private var place: WirePath? { step.map { WirePath(step: $0, container: container) } }

    /// Parses `bytes` as the body.
    ///
    /// - Throws: ``WireDecodingError`` when the bytes are not JSON.
    package init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) throws {
        do {
            self.init(try JSONParser.parse(bytes))
        } catch {
            throw WireDecodingError(path: "", reason: "is not JSON: \(error)")
        }
    }

    package func failure(_ reason: String) -> WireDecodingError {
        WireDecodingError(path: path, reason: reason)
    }

    private func mismatch(_ expected: String) -> WireDecodingError {
        failure("expected \(expected), found \(value.kindDescription)")
    }

    package func object() throws -> WireObject {
        guard case .object(let members) = value else { throw mismatch("an object") }
        return WireObject(members: members, place: place)
    }

    package func array() throws -> [WireReader] {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        let place = self.place
        return elements.indices.map { WireReader(elements[$0], step: .index($0), in: place) }
    }

    package func string() throws -> String {
        guard case .string(let text) = value else { throw mismatch("a string") }
        return text
    }

    package func bool() throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch("true or false") }
        return flag
    }

    /// A whole number in Int64's range, written without a fraction or exponent.
    package func int64() throws -> Int64 {
        guard case .number(let text) = value else { throw mismatch("a whole number") }
        guard let number = Int64(text) else {
            throw failure("expected a whole number from \(Int64.min) to \(Int64.max), found \(text)")
        }
        return number
    }

    package func int() throws -> Int {
        let number = try int64()
        guard let small = Int(exactly: number) else { throw failure("\(number) is too large") }
        return small
    }

    /// A number, or one of the strings that spell what JSON cannot (``WireFloat``).
    package func double() throws -> Double {
        switch value {
        case .number(let text):
            guard let number = Double(text) else { throw failure("\(text) is not a number") }
            return number
        case .string(let text):
            guard let number = WireFloat.value(spelled: text) else {
                throw failure("expected a number (or \"nan\", \"+inf\", \"-inf\"), found the string \"\(text)\"")
            }
            return number
        default:
            throw mismatch("a number")
        }
    }

    /// Base64 text (RFC 4648, padded) as bytes.
    package func base64() throws -> [UInt8] {
        let text = try string()
        guard let data = Data(base64Encoded: text) else { throw failure("expected base64 text") }
        return [UInt8](data)
    }

    /// Strings from a fixed set, e.g. a policy's name.
    package func oneOf<T>(_ names: KeyValuePairs<String, T>) throws -> T {
        let text = try string()
        guard let match = names.first(where: { $0.key == text }) else {
            throw failure("expected one of \(names.map { "\"\($0.key)\"" }.joined(separator: ", ")), found \"\(text)\"")
        }
        return match.value
    }

    package var isNull: Bool { value == .null }
}

/// A JSON object of a body, read by key; a key present with `null` reads as absent. An answer's
/// reader ignores keys it does not know (a newer server's); a request's reader refuses them with
/// ``allowOnly(_:)``, so that a request meant for another API (CloudKit Web Services'
/// `operations`, a zone given beside the records) is an error, never a success that did not do
/// what was sent.
package struct WireObject: Sendable {
    /// The members in the order sent (the parser refused repeated keys).
    let members: [JSONMember]
    /// The object's place in the body; nil for the body.
    let place: WirePath?

    /// The key path of the object; empty for the body.
    package var path: String { place.map { WirePath.spell($0.step, in: $0.container) } ?? "" }

    /// Refuses a key not in `keys`.
    package func allowOnly(_ keys: Set<String>) throws {
        guard let unknown = members.lazy.map(\.key).filter({ !keys.contains($0) }).min() else { return }
        throw WireDecodingError(
            path: WirePath.spell(.key(unknown), in: place),
            reason: "is not a key of this object; it takes \(keys.sorted().map { "\"\($0)\"" }.joined(separator: ", "))")
    }

    /// The member `key`, which must be present and not null.
    package func required(_ key: String) throws -> WireReader {
        guard let member = optional(key) else {
            throw WireDecodingError(path: path, reason: "lacks the key \"\(key)\"")
        }
        return member
    }

    /// The member `key`; nil when absent or null. Objects are small: a look-up is a scan.
    package func optional(_ key: String) -> WireReader? {
        guard let member = members.first(where: { $0.key == key }), member.value != .null else { return nil }
        return WireReader(member.value, step: .key(key), in: place)
    }

    /// Every member, in key order, null ones included.
    package var sortedMembers: [(key: String, reader: WireReader)] {
        members.sorted { $0.key < $1.key }.map { ($0.key, WireReader($0.value, step: .key($0.key), in: place)) }
    }

    /// The member `key` read by `read`, an array of such elements; `[]` when absent.
    package func list<T>(_ key: String, _ read: (WireReader) throws -> T) throws -> [T] {
        guard let member = optional(key) else { return [] }
        return try member.array().map(read)
    }
}

/// Where a value stands in a body, kept as a chain of steps from its container up and spelled
/// (`saves[0].fields.title`) only for an error: reading a body builds no path strings.
final class WirePath: Sendable {
    enum Step: Sendable {
        case key(String)
        case index(Int)
    }

    let step: Step
    /// The container's place; nil when the container is the body.
    let container: WirePath?

    init(step: Step, container: WirePath?) {
        self.step = step
        self.container = container
    }

    /// The path of the value at `step` in the container at `container`.
    static func spell(_ step: Step?, in container: WirePath?) -> String {
        var steps: [Step] = step.map { [$0] } ?? []
        var node = container
        while let current = node {
            steps.append(current.step)
            node = current.container
        }
        var text = ""
        for step in steps.reversed() {
            switch step {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
