import Foundation
import RecordStore

// A field value as CloudKit Web Services writes it: `{"value": …, "type": "STRING"}`.
//
// | type         | value                                                              |
// |--------------|--------------------------------------------------------------------|
// | STRING       | a string                                                           |
// | INT64        | a whole number (exact over the whole Int64 range)                  |
// | DOUBLE       | a number, or "nan", "+inf", "-inf"                                 |
// | BOOLEAN      | true or false (ours: CloudKit keeps booleans as INT64)            |
// | TIMESTAMP    | whole milliseconds since 1970                                      |
// | BYTES        | base64 text                                                        |
// | REFERENCE    | {"recordName", "zoneID" (optional: the record's zone), "action": "NONE" or "DELETE_SELF"} |
// | LOCATION     | {"latitude", "longitude"}                                          |
// | <TYPE>_LIST  | an array of plain values of one of the types above                 |
// | LIST         | an array of typed values {"value", "type"}: an empty list, a list of lists |
extension FieldValue {
    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("value")
        writePlain(to: &writer)
        writer.key("type")
        writer.string(wireType)
        writer.endObject()
    }

    /// The `type` this value is written with.
    package var wireType: String {
        switch self {
        case .list(let elements):
            guard let kind = Self.sharedScalarKind(elements) else { return "LIST" }
            return "\(Self.typeName(kind))_LIST"
        default:
            return Self.typeName(kind)
        }
    }

    /// The `value` alone.
    private func writePlain(to writer: inout JSONWriter) {
        switch self {
        case .string(let text): writer.string(text)
        case .int64(let number): writer.int(number)
        case .double(let number): writer.double(number)
        case .bool(let flag): writer.bool(flag)
        case .date(let date): writer.int(Self.milliseconds(date))
        case .bytes(let bytes): writer.base64(bytes)
        case .reference(let reference):
            writer.beginObject()
            reference.recordID.writeMembers(to: &writer)
            writer.key("action")
            writer.string(reference.action == .deleteSelf ? "DELETE_SELF" : "NONE")
            writer.endObject()
        case .location(let location):
            location.write(to: &writer)
        case .list(let elements):
            let plain = Self.sharedScalarKind(elements) != nil
            writer.beginArray()
            for element in elements {
                if plain { element.writePlain(to: &writer) } else { element.write(to: &writer) }
            }
            writer.endArray()
        }
    }

    /// A typed value `{"value", "type"}`; a reference without a `zoneID` is in `zoneID`.
    package init(wire: WireReader, zoneID: ZoneID) throws {
        let object = try wire.object()
        let typeReader = try object.required("type")
        let type = try typeReader.string()
        let value = try object.required("value")
        if type == "LIST" {
            self = .list(try value.array().map { try FieldValue(wire: $0, zoneID: zoneID) })
        } else if type.hasSuffix("_LIST"), let kind = Self.kind(named: String(type.dropLast(5))) {
            self = .list(try value.array().map { try FieldValue(plain: $0, kind: kind, zoneID: zoneID) })
        } else if let kind = Self.kind(named: type) {
            self = try FieldValue(plain: value, kind: kind, zoneID: zoneID)
        } else {
            throw typeReader.failure(
                "unknown field type \"\(type)\"; one of \(Self.scalarKinds.map { Self.typeName($0) }.joined(separator: ", ")), "
                    + "each with _LIST, or LIST")
        }
    }

    private init(plain wire: WireReader, kind: Kind, zoneID: ZoneID) throws {
        switch kind {
        case .string: self = .string(try wire.string())
        case .int64: self = .int64(try wire.int64())
        case .double: self = .double(try wire.double())
        case .bool: self = .bool(try wire.bool())
        case .date: self = .date(MillisecondDate.date(milliseconds: try wire.int64()))
        case .bytes: self = .bytes(try wire.base64())
        case .reference:
            let object = try wire.object()
            let action = try object.optional("action")?.oneOf(["NONE": Reference.Action.none, "DELETE_SELF": .deleteSelf]) ?? .none
            let recordName = try object.required("recordName").string()
            let zone = try object.optional("zoneID").map(ZoneID.init(wire:)) ?? zoneID
            self = .reference(Reference(recordID: RecordID(recordName: recordName, zoneID: zone), action: action))
        case .location:
            self = .location(try Location(wire: wire))
        case .list:
            throw wire.failure("a list's elements are typed values: use the type LIST")
        }
    }

    /// Every kind but `.list`, in the order error messages list them.
    private static let scalarKinds: [Kind] = Kind.allCases.filter { $0 != .list }

    private static func typeName(_ kind: Kind) -> String {
        switch kind {
        case .string: "STRING"
        case .int64: "INT64"
        case .double: "DOUBLE"
        case .bool: "BOOLEAN"
        case .date: "TIMESTAMP"
        case .bytes: "BYTES"
        case .reference: "REFERENCE"
        case .location: "LOCATION"
        case .list: "LIST"
        }
    }

    private static func kind(named name: String) -> Kind? {
        scalarKinds.first { typeName($0) == name }
    }

    /// The kind every element shares, when the list is not empty and holds no lists: such a
    /// list is written as `<TYPE>_LIST` with plain values.
    private static func sharedScalarKind(_ elements: [FieldValue]) -> Kind? {
        guard let first = elements.first?.kind, first != .list else { return nil }
        return elements.allSatisfy { $0.kind == first } ? first : nil
    }

    /// A date's milliseconds; one outside the stored range is written just past it, so that the
    /// server refuses it as a local save would.
    static func milliseconds(_ date: Date) -> Int64 {
        if let milliseconds = MillisecondDate.milliseconds(of: date) { return milliseconds }
        return date.timeIntervalSince1970 > 0 ? MillisecondDate.maximum + 1 : MillisecondDate.minimum - 1
    }
}

// A location as CloudKit Web Services writes it: `{"latitude": 48.85, "longitude": 2.35}`.
extension Location {
    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("latitude")
        writer.double(latitude)
        writer.key("longitude")
        writer.double(longitude)
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        self.init(latitude: try object.required("latitude").double(), longitude: try object.required("longitude").double())
    }
}
