import RecordLog
import StorageKit

extension StoredEvent {
    /// The kind of an event read in place, from its `event` header's bytes: no String is made.
    static func kind(of record: BorrowedLogRecord) -> Kind? {
        eventHeaderUTF8.withUTF8Buffer { record.headerValue(utf8: UnsafeRawBufferPointer($0)) }.flatMap(kind(named:))
    }

    /// The kind whose raw value has exactly these UTF-8 bytes, compared with `memcmp` (one event
    /// kind is read per record a scan reads).
    static func kind(named bytes: UnsafeRawBufferPointer) -> Kind? {
        let wanted = bytes.assumingMemoryBound(to: UInt8.self)
        for entry in kindsByName where entry.name.count == bytes.count {
            if entry.name.withUnsafeBufferPointer({ $0.hasSameBytes(as: wanted) }) { return entry.kind }
        }
        return nil
    }

    /// Every kind with its raw value's bytes, built once (`allCases` makes a new array per call).
    private static let kindsByName = Kind.allCases.map { (name: Array($0.rawValue.utf8), kind: $0) }
}

extension BorrowedLogRecord {
    /// The key as a record (or zone) name: nil when null or not valid UTF-8. Read once, here;
    /// the bytes are not validated again as a String elsewhere.
    var keyString: String? {
        key.flatMap { String(validatingUTF8Bytes: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// The value of the first header named `name` read as UTF-8, or nil when missing, null or
    /// not valid UTF-8.
    func headerString(_ name: String) -> String? {
        headerValue(name).flatMap { String(validatingUTF8Bytes: $0.assumingMemoryBound(to: UInt8.self)) }
    }
}
