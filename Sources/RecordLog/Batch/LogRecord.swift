/// One event read back from the log.
///
/// `key` and `value` share the decompressed batch's storage: holding a record keeps its batch's
/// bytes alive. A `nil` value is a tombstone (a delete); an empty value is not.
public struct LogRecord: Sendable, Equatable {
    /// The record's position in its partition.
    public var offset: Int64
    /// Milliseconds since the Unix epoch (Kafka's CreateTime).
    public var timestamp: Int64
    /// The key bytes, or nil for a null key.
    public var key: ArraySlice<UInt8>?
    /// The value bytes, or nil for a tombstone.
    public var value: ArraySlice<UInt8>?
    /// The record's headers, in the order they were written.
    public var headers: [LogHeader]

    package init(offset: Int64, timestamp: Int64, key: ArraySlice<UInt8>?, value: ArraySlice<UInt8>?, headers: [LogHeader]) {
        self.offset = offset
        self.timestamp = timestamp
        self.key = key
        self.value = value
        self.headers = headers
    }

    /// Whether this record deletes its key (a null value).
    public var isTombstone: Bool { value == nil }

    /// The key read as UTF-8, or nil when null or not valid UTF-8.
    public var keyString: String? {
        key.flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// The first header named `key`.
    public func header(_ key: String) -> LogHeader? {
        headers.first { $0.key == key }
    }
}
