import Testing
@testable import StorageKit
import TestSupport

@Suite struct VarintTests {
    /// 0, ±1, the extremes, and both sides of every power of two.
    static let int32Edges: [Int32] = {
        var values: Set<Int32> = [0, 1, -1, .min, .max, .min + 1, .max - 1]
        for shift in 0..<31 {
            let power = Int32(1) << Int32(shift)
            values.formUnion([power, power - 1, power + 1, -power, -power - 1, -power + 1])
        }
        return values.sorted()
    }()

    static let int64Edges: [Int64] = {
        var values: Set<Int64> = [0, 1, -1, .min, .max, .min + 1, .max - 1]
        for shift in 0..<63 {
            let power = Int64(1) << Int64(shift)
            values.formUnion([power, power - 1, power + 1, -power, -power - 1, -power + 1])
        }
        return values.sorted()
    }()

    static func decode<T>(_ bytes: [UInt8], _ read: (inout ByteReader) -> T?) -> (value: T?, position: Int) {
        bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            let value = read(&reader)
            return (value, reader.position)
        }
    }

    @Test("varint round trip; VarintSize matches the bytes written", arguments: int32Edges)
    func varintRoundTrip(value: Int32) {
        var bytes: [UInt8] = []
        bytes.appendVarint(value)
        #expect(bytes.count == VarintSize.varint(value))
        #expect((1...5).contains(bytes.count))
        let decoded = Self.decode(bytes) { $0.readVarint() }
        #expect(decoded.value == value)
        #expect(decoded.position == bytes.count)
    }

    @Test("varlong round trip; VarintSize matches the bytes written", arguments: int64Edges)
    func varlongRoundTrip(value: Int64) {
        var bytes: [UInt8] = []
        bytes.appendVarlong(value)
        #expect(bytes.count == VarintSize.varlong(value))
        #expect((1...10).contains(bytes.count))
        let decoded = Self.decode(bytes) { $0.readVarlong() }
        #expect(decoded.value == value)
        #expect(decoded.position == bytes.count)
    }

    @Test("random varlongs round trip back to back in one buffer")
    func randomBackToBack() {
        var random = SeededGenerator(seed: 99)
        let values = (0..<2_000).map { _ in Int64(bitPattern: random.next()) >> Int64.random(in: 0...63, using: &random) }
        var bytes: [UInt8] = []
        for value in values { bytes.appendVarlong(value) }
        #expect(bytes.count == values.map(VarintSize.varlong).reduce(0, +))
        let decoded: [Int64?] = bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            let all = values.map { _ in reader.readVarlong() }
            #expect(reader.isAtEnd)
            return all
        }
        #expect(decoded == values.map(Optional.some))
    }

    struct Known: Sendable, CustomTestStringConvertible {
        let value: Int64
        let bytes: [UInt8]
        var testDescription: String { "\(value)" }
    }

    /// Kafka's (and Protocol Buffers' sint) zigzag encodings.
    static let knownVarints: [Known] = [
        Known(value: 0, bytes: [0x00]), Known(value: -1, bytes: [0x01]), Known(value: 1, bytes: [0x02]),
        Known(value: 63, bytes: [0x7E]), Known(value: -64, bytes: [0x7F]), Known(value: 64, bytes: [0x80, 0x01]),
        Known(value: 300, bytes: [0xD8, 0x04]),
        Known(value: Int64(Int32.max), bytes: [0xFE, 0xFF, 0xFF, 0xFF, 0x0F]),
        Known(value: Int64(Int32.min), bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
    ]

    @Test("known zigzag encodings, byte for byte", arguments: knownVarints)
    func knownEncodings(known: Known) {
        var varint: [UInt8] = []
        varint.appendVarint(Int32(known.value))
        #expect(varint == known.bytes)
        var varlong: [UInt8] = []
        varlong.appendVarlong(known.value)
        #expect(varlong == known.bytes)
    }

    @Test("Int64 extremes take ten bytes ending in 0x01")
    func varlongExtremes() {
        var max: [UInt8] = []
        max.appendVarlong(.max)
        #expect(max == [0xFE] + [UInt8](repeating: 0xFF, count: 8) + [0x01])
        var min: [UInt8] = []
        min.appendVarlong(.min)
        #expect(min == [UInt8](repeating: 0xFF, count: 9) + [0x01])
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { name }
    }

    static let badVarints: [Bad] = [
        Bad(name: "empty", bytes: []),
        Bad(name: "one continuation byte", bytes: [0x80]),
        Bad(name: "truncated after four bytes", bytes: [0xFF, 0xFF, 0xFF, 0xFF]),
        Bad(name: "six bytes", bytes: [0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
        Bad(name: "five bytes, continuation on the fifth", bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
        Bad(name: "five bytes, bits beyond 32", bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x1F]),
        Bad(name: "five bytes, top bit of the fifth group", bytes: [0x80, 0x80, 0x80, 0x80, 0x70]),
    ]

    @Test("over-long, oversized and truncated varints are rejected without moving", arguments: badVarints)
    func badVarint(bad: Bad) {
        let decoded = Self.decode(bad.bytes) { $0.readVarint() }
        #expect(decoded.value == nil)
        #expect(decoded.position == 0)
    }

    static let badVarlongs: [Bad] = [
        Bad(name: "empty", bytes: []),
        Bad(name: "one continuation byte", bytes: [0x80]),
        Bad(name: "truncated after nine bytes", bytes: [UInt8](repeating: 0xFF, count: 9)),
        Bad(name: "eleven bytes", bytes: [UInt8](repeating: 0x80, count: 10) + [0x00]),
        Bad(name: "ten bytes, continuation on the tenth", bytes: [UInt8](repeating: 0xFF, count: 10) + [0x01]),
        Bad(name: "ten bytes, tenth byte 0x02", bytes: [UInt8](repeating: 0xFF, count: 9) + [0x02]),
        Bad(name: "ten bytes, tenth byte 0x7F", bytes: [UInt8](repeating: 0x80, count: 9) + [0x7F]),
    ]

    @Test("over-long, oversized and truncated varlongs are rejected without moving", arguments: badVarlongs)
    func badVarlong(bad: Bad) {
        let decoded = Self.decode(bad.bytes) { $0.readVarlong() }
        #expect(decoded.value == nil)
        #expect(decoded.position == 0)
    }

    @Test("every prefix of a valid varlong is rejected, never trapping")
    func everyPrefixIsRejected() {
        for value in Self.int64Edges {
            var bytes: [UInt8] = []
            bytes.appendVarlong(value)
            for cut in 0..<bytes.count {
                #expect(Self.decode(Array(bytes[..<cut])) { $0.readVarlong() }.value == nil, "\(value) cut at \(cut)")
            }
        }
        for value in Self.int32Edges {
            var bytes: [UInt8] = []
            bytes.appendVarint(value)
            for cut in 0..<bytes.count {
                #expect(Self.decode(Array(bytes[..<cut])) { $0.readVarint() }.value == nil, "\(value) cut at \(cut)")
            }
        }
    }

    @Test("a non-minimal but in-range encoding still decodes (as Kafka's reader does)")
    func nonMinimalEncoding() {
        #expect(Self.decode([0x82, 0x00]) { $0.readVarint() }.value == 1)
        #expect(Self.decode([0x82, 0x80, 0x00]) { $0.readVarlong() }.value == 1)
    }
}
