/// A JSON value whose object keys keep the order they were added in, written deterministically
/// (so golden files compare byte for byte).
///
/// ```swift
/// let line = JSONValue.object([("zone", .string("Notes")), ("offset", .int(3))]).compact()
/// // {"zone":"Notes","offset":3}
/// ```
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    /// A finite double, written so it always reads back as a double (`1.0`, `1e-05`).
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.compact() == rhs.compact()
    }

    /// An integer value.
    public static func int(_ value: Int) -> JSONValue { .int(Int64(value)) }

    /// A string, or null when `value` is nil.
    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// An integer, or null when `value` is nil.
    public static func optional(_ value: Int64?) -> JSONValue { value.map(JSONValue.int) ?? .null }

    /// The value on one line, without spaces.
    public func compact() -> String {
        var out = ""
        write(to: &out, indent: nil)
        return out
    }

    /// The value indented by two spaces per level, one member per line.
    public func pretty() -> String {
        var out = ""
        write(to: &out, indent: "")
        return out
    }

    private func write(to out: inout String, indent: String?) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? "\(value)" : "null"
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let elements):
            writeContainer(elements.map { (nil, $0) }, open: "[", close: "]", to: &out, indent: indent)
        case .object(let members):
            writeContainer(members.map { ($0.0, $0.1) }, open: "{", close: "}", to: &out, indent: indent)
        }
    }

    private func writeContainer(
        _ members: [(String?, JSONValue)], open: String, close: String, to out: inout String, indent: String?
    ) {
        out += open
        guard !members.isEmpty else { return out += close }
        let inner = indent.map { $0 + "  " }
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { out += "," }
            if let inner { out += "\n" + inner }
            if let key {
                JSONValue.writeString(key, to: &out)
                out += indent == nil ? ":" : ": "
            }
            value.write(to: &out, indent: inner)
        }
        if let indent { out += "\n" + indent }
        out += close
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
