import RecordStore

// A zone ID as CloudKit Web Services writes it: `{"zoneName": "Notes"}`, with
// `"ownerRecordName"` only for an owner other than the default one.
extension ZoneID {
    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("zoneName")
        writer.string(zoneName)
        if ownerName != RecordLimits.defaultOwnerName {
            writer.key("ownerRecordName")
            writer.string(ownerName)
        }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        self.init(
            zoneName: try object.required("zoneName").string(),
            ownerName: try object.optional("ownerRecordName")?.string() ?? RecordLimits.defaultOwnerName)
    }

    /// The zone a body's optional `zoneID` names: the default zone when absent.
    package init(optionalIn object: WireObject, key: String = "zoneID") throws {
        self = try object.optional(key).map(ZoneID.init(wire:)) ?? .default
    }
}
