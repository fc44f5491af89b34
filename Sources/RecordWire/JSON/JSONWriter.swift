import Foundation

/// Writes JSON text straight into a byte array: the wire's encoder, with no intermediate tree.
///
/// The caller writes the structure in order and the writer places the commas:
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("recordName"); writer.string("n1")
/// writer.key("tags"); writer.beginArray(); writer.string("a"); writer.string("b"); writer.endArray()
/// writer.endObject()
/// // {"recordName":"n1","tags":["a","b"]}
/// ```
///
/// Strings are escaped as RFC 8259 requires (quote, backslash, control characters) and
/// otherwise copied as UTF-8. Doubles are written in their shortest round-trip form; the ones
/// JSON cannot spell are the strings `"nan"`, `"+inf"` and `"-inf"` (``WireFloat``). The writer
/// does not check that the structure is balanced: the wire types write it, and the tests parse it.
package struct JSONWriter: Sendable {
    /// The text written so far.
    package private(set) var bytes: [UInt8] = []
    /// Whether the next value or key follows a sibling and needs a comma.
    private var needsComma = false

    package init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    package mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    package mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// `"key": [ … ]`: an array under `key`, each element written by `element`.
    package mutating func array<Elements: Sequence>(
        _ key: StaticString, _ elements: Elements, _ element: (inout JSONWriter, Elements.Element) -> Void
    ) {
        self.key(key)
        beginArray()
        for item in elements { element(&self, item) }
        endArray()
    }

    /// `"key": ["a", "b"]`.
    package mutating func strings(_ key: StaticString, _ strings: [String]) {
        array(key, strings) { $0.string($1) }
    }

    /// An object's key; its value follows.
    package mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    /// An object's key given at run time (a field's name); escaped like any string.
    package mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    package mutating func string(_ value: String) {
        separate()
        var value = value
        value.withUTF8 { appendEscaped($0) }
        needsComma = true
    }

    package mutating func int(_ value: Int64) {
        separate()
        appendDecimal(value)
        needsComma = true
    }

    package mutating func int(_ value: Int) { int(Int64(value)) }

    package mutating func double(_ value: Double) {
        if let spelled = WireFloat.spelling(of: value) {
            string(spelled)
            return
        }
        separate()
        // Swift's description is the shortest text that reads back to the same bits, in a form
        // JSON accepts ("1.0", "1e-05", "-0.0", "5e-324").
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
        needsComma = true
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        needsComma = true
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: Self.nullBytes)
        needsComma = true
    }

    /// `value` in base64 (RFC 4648, with padding) as a string.
    package mutating func base64<Bytes: Collection<UInt8>>(_ value: Bytes) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: Data(value).base64EncodedData())
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Text that is already valid JSON (a value written by another writer, or an array's
    /// elements with their commas), inserted as one value.
    package mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseBytes: [UInt8] = Array("false".utf8)
    private static let nullBytes: [UInt8] = Array("null".utf8)

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendDecimal(_ value: Int64) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        // Digits from the end, in a 20-byte scratch (Int64.min has 19 digits and a sign).
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var index = 20
            repeat {
                index -= 1
                scratch[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                index -= 1
                scratch[index] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[index..<20]))
        }
    }

    /// A quoted string: runs that need no escape are copied whole.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        bytes.append(UInt8(ascii: "\""))
    }
}
