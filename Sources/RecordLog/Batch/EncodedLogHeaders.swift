import StorageKit
/// Record headers encoded as a batch's records hold them (Kafka v2: a varint key length, the key,
/// a varint value length or -1 for null, the value), for a writer that appends many events with
/// the same headers: it encodes them once per batch instead of once per event.
///
/// ```swift
/// var shared = EncodedLogHeaders()
/// shared.append(LogHeader(key: "event", string: "save"))
/// var headers = shared
/// headers.append(key: "changeTag", string: "1-42")
/// batch.append(key: "note-1", value: bytes, headers: headers, timestamp: now)
/// ```
package struct EncodedLogHeaders: Sendable {
    /// How many headers the bytes hold.
    package private(set) var count = 0
    /// The headers' bytes.
    private(set) var bytes: [UInt8] = []

    /// No headers.
    package init() {}

    /// Appends one header.
    package mutating func append(_ header: LogHeader) {
        count += 1
        header.encode(into: &bytes)
    }

    /// Appends a header whose value is the UTF-8 bytes of `string`, without building a `LogHeader`.
    package mutating func append(key: String, string: String) {
        count += 1
        LogHeader.encodeKey(key, into: &bytes)
        bytes.appendVarint(Int32(string.utf8.count))
        bytes.append(contentsOf: string.utf8)
    }

    /// Appends a header whose value is `value`'s 8 bytes, big-endian, without building a `LogHeader`.
    package mutating func append(key: String, bigEndian value: Int64) {
        count += 1
        LogHeader.encodeKey(key, into: &bytes)
        bytes.appendVarint(Int32(8))
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends the headers of `other` after these.
    package mutating func append(contentsOf other: EncodedLogHeaders) {
        count += other.count
        bytes.append(contentsOf: other.bytes)
    }

    /// Removes every header, keeping the memory for reuse.
    package mutating func removeAll() {
        count = 0
        bytes.removeAll(keepingCapacity: true)
    }
}
