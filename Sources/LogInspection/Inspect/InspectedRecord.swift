import Foundation
import RecordLog
import RecordStore

/// One log record with what it means: the line `dump` and `follow` print.
public struct InspectedRecord: Sendable {
    /// The zone (partition) the record is in.
    public let zone: String
    /// The record as stored.
    public let record: LogRecord
    /// Its meaning in a store: event kind, record type, decoded fields.
    public let event: EventDescription

    /// Describes `record` of `zone`; never throws (undecodable values are kept as bytes).
    public init(zone: String, record: LogRecord) {
        self.zone = zone
        self.record = record
        self.event = EventDescription.describe(record, zoneName: zone)
    }

    /// The offset of the same record's previous event, from the `previous` header (FORMAT.md
    /// §10.1): −1 on its first event; nil without the header.
    public var previousOffset: Int64? {
        switch StoredEvent(record).previous {
        case .at(let offset): return offset
        case .none: return StoredEvent.noPreviousEvent
        case .unknown: return nil
        }
    }

    /// Headers other than the store's own `event`, `recordType`, `changeTag`, `clientChangeToken`
    /// and `previous`.
    public var otherHeaders: [LogHeader] {
        record.headers.filter { !StoredEvent.isStoreHeader($0.key) }
    }

    /// The JSON Lines object: `zone`, `offset`, `timestamp` (ms), `key`, `event`, `recordType`,
    /// `changeTag`, `previous` (the record's previous event's offset, −1 for none; only with the
    /// header), `creationDate`/`modificationDate` (ms, when the value has them), `fields`,
    /// `sync` and `syncChangeTag` (in a device's store: what a sync record means, the remote version)
    /// (see ``FieldJSON``; null for a delete or an undecodable value); for a value that does not
    /// decode as a record, `value` (base64), `valueText` (when it is UTF-8) and `valueError`;
    /// `headers` other than the store's own, as `{"key","value"}` with base64 or null values.
    public func json() -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("zone", .string(zone)), ("offset", .int(record.offset)), ("timestamp", .int(record.timestamp)),
            ("key", .optional(record.keyString)),
        ]
        if let key = record.key, record.keyString == nil { members.append(("keyBase64", .string(Self.base64(key)))) }
        members += [("event", .string(event.kind)), ("recordType", .optional(event.recordType)), ("changeTag", .optional(event.changeTag))]
        if let previous = previousOffset { members.append(("previous", .int(previous))) }
        if let fields = event.fields {
            if let date = fields.creationDate { members.append(("creationDate", .int(FieldJSON.milliseconds(date)))) }
            if let date = fields.modificationDate { members.append(("modificationDate", .int(FieldJSON.milliseconds(date)))) }
        }
        members.append(("fields", event.fields.map(FieldJSON.fields(of:)) ?? .null))
        if let sync = event.sync { members.append(("sync", .string(sync))) }
        if let tag = event.syncChangeTag { members.append(("syncChangeTag", .string(tag))) }
        if event.fields == nil, let value = record.value {
            members.append(("value", .string(Self.base64(value))))
            if let text = String(validating: value, as: UTF8.self) { members.append(("valueText", .string(text))) }
        }
        if let error = event.decodingError { members.append(("valueError", .string(error))) }
        if !otherHeaders.isEmpty {
            members.append(("headers", .array(otherHeaders.map {
                .object([("key", .string($0.key)), ("value", $0.value.map { .string(Self.base64($0[...])) } ?? .null)])
            })))
        }
        return .object(members)
    }

    /// One human-readable line:
    /// `Notes 3 2024-05-01T10:00:00.123Z save type=Note key=n1 changeTag=1-3 previous=1 fields={"title":"Hi"}`;
    /// a sync record's line says what it means instead of its fields: `… key=_sync.p.n1 … sync="pending save of n1 (title)"`.
    public func text() -> String {
        var parts = [Self.word(zone), String(record.offset), Timestamp.iso8601(milliseconds: record.timestamp), event.kind]
        if let type = event.recordType { parts.append("type=" + Self.word(type)) }
        if let key = record.keyString {
            parts.append("key=" + Self.word(key))
        } else {
            parts.append(record.key.map { "key=base64:" + Self.base64($0) } ?? "key=null")
        }
        if let tag = event.changeTag { parts.append("changeTag=" + Self.word(tag)) }
        if let previous = previousOffset { parts.append("previous=" + (previous < 0 ? "none" : String(previous))) }
        if let tag = event.syncChangeTag { parts.append("syncTag=" + Self.word(tag)) }
        if let sync = event.sync {
            parts.append("sync=" + JSONValue.string(sync).compact())
        } else if let fields = event.fields {
            parts.append("fields=" + FieldJSON.fields(of: fields).compact())
        } else if let value = record.value {
            parts.append("value=base64:" + Self.base64(value))
        }
        if !otherHeaders.isEmpty { parts.append("headers=\(otherHeaders.count)") }
        return parts.joined(separator: " ")
    }

    /// A word as is, or JSON-quoted when it is empty or has spaces, `=`, quotes or control characters.
    static func word(_ text: String) -> String {
        let plain = !text.isEmpty
            && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "=" && $0 != "\"" && $0.value != 0x7F }
        return plain ? text : JSONValue.string(text).compact()
    }

    static func base64(_ bytes: ArraySlice<UInt8>) -> String {
        Data(bytes).base64EncodedString()
    }
}
