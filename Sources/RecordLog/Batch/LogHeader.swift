import StorageKit
/// A Kafka record header: a UTF-8 key and an optional byte value.
public struct LogHeader: Sendable, Hashable {
    /// The header's name.
    public var key: String
    /// The header's bytes; `nil` is a null value, distinct from an empty one.
    public var value: [UInt8]?

    public init(key: String, value: [UInt8]?) {
        self.key = key
        self.value = value
    }

    /// A header whose value is the UTF-8 bytes of `string`.
    public init(key: String, string: String) {
        self.init(key: key, value: Array(string.utf8))
    }

    /// The value read as UTF-8, or nil when null or not valid UTF-8.
    public var stringValue: String? {
        value.flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// Appends the header as a batch's records hold it.
    func encode(into bytes: inout [UInt8]) {
        Self.encodeKey(key, into: &bytes)
        if let value {
            bytes.appendVarint(Int32(value.count))
            bytes.append(contentsOf: value)
        } else {
            bytes.appendVarint(-1)
        }
    }

    /// The bytes ``encode(into:)`` appends.
    var encodedSize: Int {
        let keyLength = key.utf8.count
        return VarintSize.varint(Int32(keyLength)) + keyLength + (value.map { VarintSize.varint(Int32($0.count)) + $0.count } ?? 1)
    }

    /// Appends a header key: its varint length and UTF-8 bytes.
    static func encodeKey(_ key: String, into bytes: inout [UInt8]) {
        bytes.appendVarint(Int32(key.utf8.count))
        bytes.append(contentsOf: key.utf8)
    }
}
