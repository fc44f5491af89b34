import Foundation
import StorageKit

extension String {
    /// Calls `body` with the string's UTF-8 bytes in contiguous memory: in place for native
    /// strings (every string on Linux), from a copy otherwise. Byte loops over this are much
    /// faster than over `utf8`'s index-based iteration.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}

extension String {
    /// Whether the two strings hold the same UTF-8 bytes (stricter than `==`, which treats
    /// canonically equivalent strings as equal although they encode differently).
    func hasSameUTF8(as other: String) -> Bool {
        withUTF8Bytes { lhs in other.withUTF8Bytes { rhs in lhs.hasSameBytes(as: rhs) } }
    }
}

extension String {
    /// The string whose UTF-8 is exactly `bytes`, or nil when `bytes` is not valid UTF-8.
    ///
    /// Uses the standard library's specialized `String(decoding:as:)` (which repairs invalid
    /// input) and rejects any repair by comparing the bytes; the generic `String(validating:as:)`
    /// costs a metadata lookup per call, too slow for decoding millions of records.
    init?(validatingUTF8Bytes bytes: UnsafeBufferPointer<UInt8>) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.withUTF8Bytes({ $0.hasSameBytes(as: bytes) }) else { return nil }
        self = decoded
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether both buffers hold the same bytes (`memcmp`, not a byte-by-byte loop).
    @inline(__always)
    package func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        UnsafeRawBufferPointer(self).hasSameBytes(as: UnsafeRawBufferPointer(other))
    }

    /// Whether these bytes sort before `other`'s, compared as unsigned bytes (`memcmp`), a prefix
    /// first: the order of UTF-8 strings by Unicode scalar values.
    package func precedesBytes(of other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = baseAddress, let otherBase = other.baseAddress else { return count < other.count }
        let order = memcmp(base, otherBase, Swift.min(count, other.count))
        return order == 0 ? count < other.count : order < 0
    }
}
