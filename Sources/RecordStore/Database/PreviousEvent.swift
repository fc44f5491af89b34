/// What an event's `previous` header (FORMAT.md §10.1) says about the same record's previous
/// event in its zone: where it is, that there is none, or nothing (a log written before the
/// header, or an event whose writer could not tell).
package enum PreviousEvent: Sendable, Equatable {
    /// The record's previous event is at this offset (compaction may have removed it since).
    case at(Int64)
    /// This is the record's first event.
    case none
    /// No header, or one that is not 8 bytes of an offset or −1: earlier events must be searched for.
    case unknown

    /// Reads a header's value: 8 bytes, a big-endian int64.
    package init(bytes value: [UInt8]?) {
        self = value.map { bytes in bytes.withUnsafeBytes { PreviousEvent(header: $0) } } ?? .unknown
    }

    /// Reads a header's value read in place.
    package init(header value: UnsafeRawBufferPointer?) {
        guard let value, value.count == 8 else {
            self = .unknown
            return
        }
        self.init(offset: value.reduce(Int64(0)) { $0 << 8 | Int64($1) })
    }

    private init(offset: Int64) {
        if offset == StoredEvent.noPreviousEvent {
            self = .none
        } else if offset >= 0 {
            self = .at(offset)
        } else {
            self = .unknown
        }
    }
}
