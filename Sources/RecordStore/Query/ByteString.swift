import Foundation
import StorageKit

/// A string compared, hashed and ordered by its UTF-8 bytes — the same as by Unicode scalar
/// values — so equality agrees with ``FieldValue``'s (byte equality, not canonical equivalence)
/// and the order does not depend on locale or normalization.
struct ByteString: Sendable, Hashable, Comparable {
    let value: String

    init(_ value: String) { self.value = value }

    static func == (lhs: ByteString, rhs: ByteString) -> Bool {
        lhs.value.hasSameUTF8(as: rhs.value)
    }

    static func < (lhs: ByteString, rhs: ByteString) -> Bool {
        compare(lhs.value, rhs.value) < 0
    }

    func hash(into hasher: inout Hasher) {
        value.withUTF8Bytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// `memcmp` order of the UTF-8 bytes, shorter first on a common prefix: negative, zero or positive.
    static func compare(_ lhs: String, _ rhs: String) -> Int {
        lhs.withUTF8Bytes { left in
            rhs.withUTF8Bytes { right in
                let common = min(left.count, right.count)
                if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
                    let order = Int(memcmp(leftBase, rightBase, common))
                    if order != 0 { return order }
                }
                return left.count - right.count
            }
        }
    }

    /// Whether `value` starts with `prefix`'s bytes.
    func hasBytePrefix(_ prefix: String) -> Bool {
        value.withUTF8Bytes { bytes in
            prefix.withUTF8Bytes { start in
                start.count <= bytes.count && UnsafeBufferPointer(rebasing: bytes[..<start.count]).hasSameBytes(as: start)
            }
        }
    }
}
