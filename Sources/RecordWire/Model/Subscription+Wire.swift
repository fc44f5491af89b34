import RecordStore

// A subscription as CloudKit Web Services writes it:
//
//     {"subscriptionID": "notes", "subscriptionType": "zone", "zoneID": {"zoneName": "Notes"}}
//     {"subscriptionID": "pinned", "subscriptionType": "query", "query": {…}, "zoneID": {…},
//      "firesOn": ["create", "update", "delete"]}
//     {"subscriptionID": "all", "subscriptionType": "database"}        (ours)
extension Subscription {
    private static let firesOnNames: KeyValuePairs<String, FiresOn> = [
        "create": .recordCreation, "update": .recordUpdate, "delete": .recordDeletion,
    ]

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("subscriptionID")
        writer.string(id)
        writer.key("subscriptionType")
        switch kind {
        case .database:
            writer.string("database")
        case .zone(let zoneID):
            writer.string("zone")
            writer.key("zoneID")
            zoneID.write(to: &writer)
        case .query(let query, let zoneID, let firesOn):
            writer.string("query")
            writer.key("query")
            query.write(to: &writer)
            if let zoneID {
                writer.key("zoneID")
                zoneID.write(to: &writer)
            }
            writer.key("firesOn")
            writer.beginArray()
            for (name, event) in Self.firesOnNames where firesOn.contains(event) { writer.string(name) }
            writer.endArray()
        }
        writer.endObject()
    }

    package init(wire: WireReader) throws {
        let object = try wire.object()
        let id = try object.required("subscriptionID").string()
        enum Type { case database, zone, query }
        switch try object.required("subscriptionType").oneOf(["database": Type.database, "zone": .zone, "query": .query]) {
        case .database:
            self.init(id: id, kind: .database)
        case .zone:
            self.init(id: id, kind: .zone(try ZoneID(wire: try object.required("zoneID"))))
        case .query:
            let zoneID = try object.optional("zoneID").map(ZoneID.init(wire:))
            let firesOn = try object.optional("firesOn").map { FiresOn(try $0.array().map { try $0.oneOf(Self.firesOnNames) }) } ?? .all
            self.init(id: id, kind: .query(try RecordQuery(wire: try object.required("query"), zoneID: zoneID ?? .default), zoneID: zoneID, firesOn: firesOn))
        }
    }
}
