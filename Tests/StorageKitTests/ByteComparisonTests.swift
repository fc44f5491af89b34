import Testing
@testable import StorageKit

/// `hasSameBytes` answers as a byte-by-byte comparison does for every length, whichever of its
/// ways (short loads or `memcmp`) the length takes, and wherever two runs differ.
struct ByteComparisonTests {
    @Test("equal runs are equal, and a run differing in any one byte is not, at every length to 40")
    func everyLengthEveryPosition() {
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            // At an odd offset, so that the loads are unaligned.
            let copy = [0xAA] + bytes
            copy.withUnsafeBytes { shifted in
                let other = UnsafeRawBufferPointer(rebasing: shifted[1...])
                bytes.withUnsafeBytes { #expect($0.hasSameBytes(as: other), "length \(count)") }
            }
            for position in 0..<count {
                var changed = bytes
                changed[position] ^= 0x01
                bytes.withUnsafeBytes { original in
                    changed.withUnsafeBytes { #expect(!original.hasSameBytes(as: $0), "length \(count), byte \(position)") }
                }
            }
        }
    }

    @Test("runs of different lengths differ, even when one is the other's prefix")
    func lengthsDiffer() {
        let bytes: [UInt8] = Array(repeating: 7, count: 20)
        bytes.withUnsafeBytes { all in
            for count in 0..<20 { #expect(!UnsafeRawBufferPointer(rebasing: all[..<count]).hasSameBytes(as: all)) }
        }
    }
}
