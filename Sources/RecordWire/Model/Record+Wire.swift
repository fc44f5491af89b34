import Foundation
import RecordStore

/// Which side of a save a record's JSON is on.
package enum RecordWireRole: Sendable {
    /// A record as the store holds it, in an answer: no changed keys.
    case stored
    /// A record a client sends to be saved with `policy`: the fields it writes and the keys it
    /// changes.
    case save(SavePolicy)
}

// A record as CloudKit Web Services writes it:
//
//     {"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note",
//      "recordChangeTag": "1-17", "fields": {"title": {"value": "Milk", "type": "STRING"}},
//      "created": {"timestamp": 1700000000000}, "modified": {"timestamp": 1700000000000}}
//
// A save may add `changedKeys`: without it every key in `fields` is written (CloudKit Web
// Services' meaning); with it exactly those keys, and a listed key absent from `fields` is
// removed. A field whose value is `null` is removed either way. `syncAuthor` (ours) says which
// device edited a synced record and when: {"editedAt": milliseconds, "deviceID": base64}.
extension Record {
    /// Writes the record; with `desiredKeys`, a stored record's fields are only those keys.
    package func write(to writer: inout JSONWriter, as role: RecordWireRole, desiredKeys: Set<String>? = nil) {
        writer.beginObject()
        recordID.writeMembers(to: &writer)
        writer.key("recordType")
        writer.string(recordType)
        if let recordChangeTag {
            writer.key("recordChangeTag")
            writer.string(recordChangeTag)
        }
        writer.key("fields")
        writer.beginObject()
        switch role {
        case .stored, .save(.allKeys):
            forEachField { key, value in
                if let desiredKeys, !desiredKeys.contains(key) { return }
                writer.key(key)
                value.write(to: &writer)
            }
        case .save:
            for key in changedKeys() {
                guard let value = self[key] else { continue }
                writer.key(key)
                value.write(to: &writer)
            }
        }
        writer.endObject()
        if case .save = role {
            writer.strings("changedKeys", changedKeys())
        }
        Self.writeStamp("created", creationDate, to: &writer)
        Self.writeStamp("modified", modificationDate, to: &writer)
        if let syncAuthor {
            writer.key("syncAuthor")
            writer.beginObject()
            writer.key("editedAt")
            writer.int(syncAuthor.editedAt)
            writer.key("deviceID")
            writer.base64(syncAuthor.device)
            writer.endObject()
        }
        writer.endObject()
    }

    /// `{"timestamp": milliseconds}` under `key`, when there is a date.
    private static func writeStamp(_ key: StaticString, _ date: Date?, to writer: inout JSONWriter) {
        guard let date else { return }
        writer.key(key)
        writer.beginObject()
        writer.key("timestamp")
        writer.int(FieldValue.milliseconds(date))
        writer.endObject()
    }

    /// The keys a record sent to be saved may have.
    private static let saveKeys: Set<String> = [
        "recordName", "zoneID", "recordType", "recordChangeTag", "fields", "changedKeys", "created", "modified", "syncAuthor",
    ]

    /// A record from its JSON: as stored (no changed keys), or as a save (the keys it writes; a
    /// key it does not know is refused).
    package init(wire: WireReader, as role: RecordWireRole) throws {
        let object = try wire.object()
        if case .save = role { try object.allowOnly(Self.saveKeys) }
        let recordID = try RecordID(membersOf: object)
        var fields: [(key: String, value: FieldValue)] = []
        var removed: [String] = []
        if let fieldsReader = object.optional("fields") {
            for (key, reader) in try fieldsReader.object().sortedMembers {
                if reader.isNull { removed.append(key) } else { fields.append((key, try FieldValue(wire: reader, zoneID: recordID.zoneID))) }
            }
        }
        var changedKeys: Set<String> = []
        if case .save(let policy) = role {
            if let listed = object.optional("changedKeys") {
                changedKeys = Set(try listed.array().map { try $0.string() })
                // Exactly the listed keys are saved (a new record too); `.allKeys` saves them all.
                if policy != .allKeys { fields.removeAll { !changedKeys.contains($0.key) } }
            } else {
                changedKeys = Set(fields.map(\.key))
            }
            changedKeys.formUnion(removed)
        }
        func date(_ key: String) throws -> Date? {
            guard let stamp = object.optional(key) else { return nil }
            return MillisecondDate.date(milliseconds: try stamp.object().required("timestamp").int64())
        }
        self.init(
            recordType: try object.required("recordType").string(), recordID: recordID, fields: fields,
            creationDate: try date("created"), modificationDate: try date("modified"),
            recordChangeTag: try object.optional("recordChangeTag")?.string(), changedKeys: changedKeys)
        if let author = object.optional("syncAuthor") {
            let stamp = try author.object()
            setSyncAuthor(SyncAuthor(editedAt: try stamp.required("editedAt").int64(), device: try stamp.required("deviceID").base64()))
        }
    }
}
