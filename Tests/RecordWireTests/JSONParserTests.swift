import RecordWire
import Testing
import TestSupport

/// The wire's JSON reader and writer on their own: RFC 8259 strictly, and every string and
/// number the writer writes reads back as itself.
@Suite struct JSONParserTests {
    @Test("values of every kind parse, with white space around them")
    func parsesEveryKind() throws {
        let value = try JSONParser.parse(Array(#" {"a": [1, -0.5e3, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud834\udd1e"], "b": {}} "#.utf8))
        let expected: JSONValue = .object([
            JSONMember("a", .array([.number("1"), .number("-0.5e3"), .bool(true), .bool(false), .null, .string("x\"\\/\u{8}\u{c}\n\r\té𝄞")])),
            JSONMember("b", .object([])),
        ])
        #expect(value == expected)
    }

    @Test(
        "malformed text is refused with where and why",
        arguments: [
            ("", "end"), ("{", "key"), ("[1,]", "unexpected"), ("{\"a\" 1}", "':'"), ("{\"a\":1,}", "key"), ("01", "leading zero"),
            ("1.", "digit"), ("1e", "digit"), ("-", "digit"), ("\"abc", "not closed"), ("\"a\u{01}\"", "control"), ("\"\\x\"", "escape"),
            ("\"\\ud834\"", "surrogate"), ("\"\\udd1e\"", "surrogate"), ("\"\\u12\"", "hex"), ("tru", "end"), ("nul", "end"),
            ("[1] 2", "after"), ("{\"a\":1,\"a\":2}", "twice"), ("'a'", "unexpected"), ("NaN", "unexpected"), ("+1", "unexpected"),
        ])
    func refusesMalformed(text: String, reason: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
        do {
            _ = try JSONParser.parse(Array(text.utf8))
        } catch {
            #expect(error.reason.contains(reason), "\(text.debugDescription): \(error)")
        }
    }

    @Test("a repeated key is refused in a small object and in a large one; many distinct keys parse")
    func repeatedKeys() throws {
        let distinct = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        guard case .object(let members) = try JSONParser.parse(Array("{\(distinct)}".utf8)) else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == (0..<40).map { "k\($0)" })
        for text in ["{\"a\": 1, \"b\": 2, \"a\": 3}", "{\(distinct), \"k7\": 0}"] {
            #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
        }
    }

    @Test("invalid UTF-8 in a string is refused")
    func refusesInvalidUTF8() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0x5C, 0x6E, 0xFF, 0x22]) }
    }

    @Test("nesting is bounded: 64 levels parse, 65 are refused without exhausting the stack")
    func depth() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try JSONParser.parse(Array(deep.utf8))
        let deeper = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(deeper.utf8)) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(String(repeating: "[", count: 100_000).utf8)) }
    }

    @Test("any string the writer writes reads back as itself (seeded random Unicode, control characters included)")
    func stringsRoundTrip() throws {
        var random = SeededGenerator(seed: 0x4A50_0001)
        let pool: [Unicode.Scalar] = (0..<0x80).compactMap(Unicode.Scalar.init) + ["é", "☃", "𝄞", "\u{2028}", "\u{FEFF}", "\u{10FFFF}"]
        for _ in 0..<500 {
            let text = String(String.UnicodeScalarView((0..<Int.random(in: 0..<40, using: &random)).map { _ in pool[Int.random(in: 0..<pool.count, using: &random)] }))
            var writer = JSONWriter()
            writer.string(text)
            #expect(try JSONParser.parse(writer.bytes) == .string(text), "\(text.debugDescription)")
        }
    }

    @Test("any double reads back bit for bit, and Int64's extremes exactly")
    func numbersRoundTrip() throws {
        var random = SeededGenerator(seed: 0x4A50_0002)
        var values: [Double] = [0, -0.0, 0.1, 1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.leastNormalMagnitude, .nan, .infinity, -.infinity, 1e16, 123456789.125]
        for _ in 0..<2_000 { values.append(Double(bitPattern: random.next())) }
        for value in values {
            var writer = JSONWriter()
            writer.beginArray()
            writer.double(value)
            writer.endArray()
            let read = try WireReader(parsing: writer.bytes).array()[0].double()
            #expect(read.bitPattern == value.bitPattern || (read.isNaN && value.isNaN), "\(value) came back as \(read)")
        }
        for value in [Int64.min, Int64.max, 0, -1, 9, 10, 1_700_000_000_123] {
            var writer = JSONWriter()
            writer.int(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
            #expect(try WireReader(parsing: writer.bytes).int64() == value)
        }
        #expect(throws: WireDecodingError.self) { try WireReader(parsing: Array("9223372036854775808".utf8)).int64() }
        #expect(throws: WireDecodingError.self) { try WireReader(parsing: Array("1.0".utf8)).int64() }
    }

    @Test("the writer places commas and escapes keys")
    func writerStructure() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        writer.int(1)
        writer.beginObject()
        writer.endObject()
        writer.null()
        writer.endArray()
        writer.key("k\"ey")
        writer.bool(false)
        writer.key("b")
        writer.base64([0, 1, 2, 255])
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":[1,{},null],"k\"ey":false,"b":"AAEC/w=="}"#)
    }
}
