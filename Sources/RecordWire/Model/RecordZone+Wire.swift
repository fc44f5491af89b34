import RecordStore

// A zone as CloudKit Web Services writes it: `{"zoneID": {…}, "syncToken": "…", "atomic": true}`,
// with its capabilities by name (ours): "FETCH_CHANGES", "ATOMIC", "SHARING".
extension RecordZone {
    private static let capabilityNames: KeyValuePairs<String, Capabilities> = [
        "FETCH_CHANGES": .fetchChanges, "ATOMIC": .atomic, "SHARING": .sharing,
    ]

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("zoneID")
        zoneID.write(to: &writer)
        if let currentChangeToken {
            writer.key("syncToken")
            currentChangeToken.write(to: &writer)
        }
        writer.key("atomic")
        writer.bool(capabilities.contains(.atomic))
        writer.key("capabilities")
        writer.beginArray()
        for (name, capability) in Self.capabilityNames where capabilities.contains(capability) { writer.string(name) }
        writer.endArray()
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        let zoneID = try ZoneID(wire: try object.required("zoneID"))
        if let token = try object.optional("syncToken").map(ServerChangeToken.init(wire:)) {
            self.init(zoneID: zoneID, currentChangeToken: token)
        } else {
            self.init(zoneID: zoneID)
        }
        if let names = object.optional("capabilities") {
            capabilities = Capabilities(try names.array().map { try $0.oneOf(Self.capabilityNames) })
        }
    }
}
