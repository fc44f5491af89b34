/// Parses JSON text (RFC 8259) into a ``JSONValue``: strictly, as a server reads what any client
/// sends. Refused, with the byte offset: anything but one value with white space around it,
/// invalid UTF-8, unescaped control characters, lone surrogates, repeated keys in one object,
/// leading zeros, and nesting deeper than ``maximumDepth``.
package struct JSONParser {
    /// The deepest nesting of arrays and objects read (a record's lists nest four deep, inside
    /// a request body's few levels).
    package static let maximumDepth = 64

    /// Why text is not JSON, and where.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var offset: Int
        package var reason: String

        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// Parses `bytes` as one JSON value.
    package static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(Failure) in try parseBuffer(buffer) }
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer throws(Failure) in try parseBuffer(buffer) }
    }

    private static func parseBuffer(_ buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var parser = JSONParser(input: buffer)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == buffer.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    private let input: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(input: UnsafeBufferPointer<UInt8>) { self.input = input }

    private func failure(_ reason: String) -> Failure { Failure(offset: position, reason: reason) }

    private var current: UInt8? { position < input.count ? input[position] : nil }

    private mutating func skipSpace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard let byte = current else { throw failure("unexpected end of the text") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard position + count <= input.count else { throw failure("unexpected end of the text") }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { input[position + $0] == expected[$0] }
        }
        guard matches else { throw failure("unexpected character") }
        position += count
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
        position += 1
        var members: [JSONMember] = []
        skipSpace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a key in quotes") }
            let keyOffset = position
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
            position += 1
            skipSpace()
            // A small object is checked for repeated keys as it is read; a large one at its end.
            if members.count < Self.keysCheckedAsRead, members.contains(where: { $0.key == key }) {
                throw Failure(offset: keyOffset, reason: "the key \"\(key)\" appears twice in one object")
            }
            members.append(JSONMember(key, try value(depth: depth)))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                if members.count > Self.keysCheckedAsRead { try Self.checkKeysOnce(members, end: position) }
                return .object(members)
            case nil: throw failure("unexpected end of the text")
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    /// Up to this many members, each key is compared with the ones before it; past it, the keys
    /// are sorted once at the object's end (so no body costs quadratic time).
    private static let keysCheckedAsRead = 16

    private static func checkKeysOnce(_ members: [JSONMember], end: Int) throws(Failure) {
        let keys = members.map(\.key).sorted()
        for index in keys.indices.dropFirst() where keys[index] == keys[index - 1] {
            throw Failure(offset: end, reason: "the key \"\(keys[index])\" appears twice in one object")
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
        position += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            case nil: throw failure("unexpected end of the text")
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func number() throws(Failure) -> String {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        switch current {
        case UInt8(ascii: "0"):
            position += 1
            if let next = current, next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") { throw failure("a number has a leading zero") }
        case let digit? where digit >= UInt8(ascii: "1") && digit <= UInt8(ascii: "9"):
            skipDigits()
        default:
            throw failure("expected a digit")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard isDigit(current) else { throw failure("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard isDigit(current) else { throw failure("expected a digit in the exponent") }
            skipDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while isDigit(current) { position += 1 }
    }

    /// A quoted string, its escapes undone; the text must be valid UTF-8.
    private mutating func string() throws(Failure) -> String {
        position += 1
        let start = position
        // Fast path: no escape before the closing quote; ASCII needs no UTF-8 validation.
        var ascii = true
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(rebasing: input[start..<position])
                let text = ascii ? String(decoding: bytes, as: UTF8.self) : try validated(bytes, at: start)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("a control character in a string must be escaped") }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        var bytes = Array(UnsafeBufferPointer(rebasing: input[start..<position]))
        while true {
            guard let byte = current else { throw failure("a string is not closed") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try validated(buffer, at: start) }
            case UInt8(ascii: "\\"):
                try escape(into: &bytes)
            case 0..<0x20:
                position -= 1
                throw failure("a control character in a string must be escaped")
            default:
                bytes.append(byte)
            }
        }
    }

    private func validated(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(Failure) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(offset: offset, reason: "a string is not valid UTF-8")
        }
        return text
    }

    private mutating func escape(into bytes: inout [UInt8]) throws(Failure) {
        guard let byte = current else { throw failure("a string is not closed") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hex4())
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\"), position + 1 < input.count, input[position + 1] == UInt8(ascii: "u") else {
                    throw failure("a high surrogate escape is not followed by a low one")
                }
                position += 2
                let low = UInt32(try hex4())
                guard (0xDC00..<0xE000).contains(low) else { throw failure("a high surrogate escape is not followed by a low one") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw failure("a lone low surrogate escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("an escape that is no Unicode scalar") }
            bytes.append(contentsOf: String(Character(unicode)).utf8)
        default:
            position -= 1
            throw failure("an unknown escape")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt16 {
        guard position + 4 <= input.count else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }
}
