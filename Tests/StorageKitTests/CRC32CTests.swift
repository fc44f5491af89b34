import Testing
@testable import StorageKit
import TestSupport

@Suite struct CRC32CTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let crc: UInt32
        var testDescription: String { name }
    }

    /// RFC 3720 appendix B.4 and the usual check value.
    static let vectors = [
        Vector(name: "32 bytes of zeros", bytes: [UInt8](repeating: 0, count: 32), crc: 0x8A91_36AA),
        Vector(name: "32 bytes of 0xFF", bytes: [UInt8](repeating: 0xFF, count: 32), crc: 0x62A8_AB43),
        Vector(name: "ascending 0...31", bytes: Array(0...31), crc: 0x46DD_794E),
        Vector(name: "descending 31...0", bytes: Array((0...31).reversed()), crc: 0x113F_DB5C),
        Vector(name: "\"123456789\"", bytes: Array("123456789".utf8), crc: 0xE306_9283),
        Vector(name: "empty", bytes: [], crc: 0),
    ]

    @Test("published vectors, through the dispatching and the portable code", arguments: vectors)
    func publishedVectors(vector: Vector) {
        #expect(CRC32C.checksum(vector.bytes) == vector.crc)
        #expect(vector.bytes.withUnsafeBytes { CRC32C.portableChecksum($0) } == vector.crc)
    }

    @Test("hardware and portable code agree on random buffers of many lengths and alignments")
    func hardwareMatchesPortable() {
        var random = SeededGenerator(seed: 3720)
        // 768 and 24,576 bytes: where the three-stream loops start (3 × 256, 3 × 8,192).
        let lengths = Array(0...130) + [255, 256, 257, 767, 768, 769, 1000, 1023, 1024, 4095, 4096, 4097]
            + [24_575, 24_576, 24_577, 49_160, 65_537, 300_001]
        for length in lengths {
            // Up to 15 leading bytes shift the buffer through every alignment the SSE code handles.
            let padded = random.bytes(length + 15)
            for shift in 0..<16 where length + shift <= padded.count {
                padded.withUnsafeBytes { raw in
                    let slice = UnsafeRawBufferPointer(rebasing: raw[shift..<(shift + length)])
                    #expect(
                        CRC32C.checksum(slice) == CRC32C.portableChecksum(slice),
                        "length \(length), alignment \(shift)")
                }
            }
        }
    }

    @Test("a CRC continued over split input equals the CRC of the whole")
    func continuingOverSplitInput() {
        var random = SeededGenerator(seed: 42)
        let bytes = random.bytes(2_000)
        let whole = CRC32C.checksum(bytes)
        for split in [0, 1, 3, 7, 8, 9, 15, 16, 17, 63, 64, 100, 999, 1_000, 1_999, 2_000] {
            let head = Array(bytes[..<split]), tail = Array(bytes[split...])
            #expect(CRC32C.checksum(tail, continuing: CRC32C.checksum(head)) == whole, "split at \(split)")
            let portable = tail.withUnsafeBytes { tailRaw in
                head.withUnsafeBytes { CRC32C.portableChecksum(tailRaw, continuing: CRC32C.portableChecksum($0)) }
            }
            #expect(portable == whole, "portable, split at \(split)")
        }
        // Many small pieces too.
        var crc: UInt32 = 0
        for start in stride(from: 0, to: bytes.count, by: 13) {
            crc = CRC32C.checksum(Array(bytes[start..<min(start + 13, bytes.count)]), continuing: crc)
        }
        #expect(crc == whole)
    }

    @Test("continuing with no bytes leaves the CRC unchanged")
    func continuingWithNothing() {
        #expect(CRC32C.checksum([], continuing: 0xE306_9283) == 0xE306_9283)
    }
}
