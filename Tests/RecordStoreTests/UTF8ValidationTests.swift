import Testing
import TestSupport

@testable import RecordStore

@Suite struct UTF8ValidationTests {
    /// Whether `String(decoding:as:)` keeps the bytes as they are (repairs nothing).
    private func decodesUnchanged(_ bytes: [UInt8]) -> Bool {
        Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes
    }

    private func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer(\.isValidUTF8)
    }

    @Test("the validator accepts exactly what String(decoding:) keeps unchanged, on edge cases")
    func edgeCases() {
        let cases: [[UInt8]] = [
            [], [0x41], [0x7F], [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0x9F, 0x80],
            [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x8F, 0x80, 0x80],
            [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0xE2, 0x9C], [0xF0, 0x9F, 0x98], Array("0123456789abcdef😀".utf8), Array("01234567é".utf8),
        ]
        for bytes in cases {
            #expect(isValid(bytes) == decodesUnchanged(bytes), "\(bytes)")
        }
    }

    @Test("the validator agrees with String(decoding:) on random bytes and random text")
    func randomBytes() {
        var generator = SeededGenerator(seed: 5)
        let pieces = ["a", "é", "✓", "😀", "\u{10FFFF}", "0123456789"].map { Array($0.utf8) }
        for _ in 0..<5_000 {
            var bytes = (0..<Int.random(in: 0...6, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator) ?? [] }
            if Bool.random(using: &generator), !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) {
                bytes += (0..<Int.random(in: 0...4, using: &generator)).map { _ in UInt8.random(in: 0x80...0xFF, using: &generator) }
            }
            #expect(isValid(bytes) == decodesUnchanged(bytes), "\(bytes)")
        }
    }

    @Test("one non-ASCII or invalid byte at any position of ASCII text of any length up to 40 is judged as String(decoding:) judges it")
    func oddByteAtEveryPosition() {
        // The check reads ASCII 32, 8, 4 or 1 bytes at a time, and a short tail with loads that
        // overlap bytes checked before: every length and every position meets each of those.
        let odd: [[UInt8]] = [[0x80], [0xFF], [0xC3, 0xA9], [0xE2, 0x9C, 0x93], [0xF0, 0x9F, 0x98, 0x80], [0xE2, 0x9C], [0xED, 0xA0, 0x80]]
        for length in 0...40 {
            let ascii = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            #expect(isValid(ascii), "\(length) ASCII bytes")
            for position in 0...length {
                for sequence in odd {
                    var bytes = ascii
                    bytes.insert(contentsOf: sequence, at: position)
                    #expect(isValid(bytes) == decodesUnchanged(bytes), "\(bytes)")
                }
            }
        }
    }
}
