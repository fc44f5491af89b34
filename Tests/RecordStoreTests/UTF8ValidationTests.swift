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
}
