import RecordStore

// A record ID as CloudKit Web Services writes it: `{"recordName": "n1", "zoneID": {…}}`; a
// `zoneID` left out is the default zone.
extension RecordID {
    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writeMembers(to: &writer)
        writer.endObject()
    }

    /// `recordName` and `zoneID` as members of an object the caller writes (a record, an error).
    package func writeMembers(to writer: inout JSONWriter) {
        writer.key("recordName")
        writer.string(recordName)
        writer.key("zoneID")
        zoneID.write(to: &writer)
    }

    package init(wire: WireReader) throws {
        try self.init(membersOf: try wire.object())
    }

    /// The ID an object's `recordName` and `zoneID` members give.
    package init(membersOf object: WireObject) throws {
        self.init(recordName: try object.required("recordName").string(), zoneID: try ZoneID(optionalIn: object))
    }
}
