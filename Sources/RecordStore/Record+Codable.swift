import Foundation

// Codable for caching records outside the store (like CloudKit's `encodeSystemFields`): fields as a
// keyed object, system fields, and the changed keys, so a record decoded later saves the same way.
// A decoded record is not validated here; every save validates.
extension Record: Codable {
    private enum CodingKeys: String, CodingKey {
        case recordType, recordID, fields, creationDate, modificationDate, recordChangeTag, changedKeys, syncAuthor
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let fieldsByKey = try container.decode([String: FieldValue].self, forKey: .fields)
        self.init(
            recordType: try container.decode(String.self, forKey: .recordType),
            recordID: try container.decode(RecordID.self, forKey: .recordID),
            sortedFields: fieldsByKey.map { Field(key: $0.key, value: $0.value) }.sorted { $0.key < $1.key },
            creationDate: try container.decodeIfPresent(Date.self, forKey: .creationDate),
            modificationDate: try container.decodeIfPresent(Date.self, forKey: .modificationDate),
            recordChangeTag: try container.decodeIfPresent(String.self, forKey: .recordChangeTag),
            changedKeys: Set(try container.decodeIfPresent([String].self, forKey: .changedKeys) ?? []))
        // Who edited a synced record travels with it: a remote keeps what the device says.
        if let author = try container.decodeIfPresent(SyncAuthor.self, forKey: .syncAuthor) { setSyncAuthor(author) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recordType, forKey: .recordType)
        try container.encode(recordID, forKey: .recordID)
        var fieldsByKey: [String: FieldValue] = [:]
        for field in fields { fieldsByKey[field.key] = field.value }
        try container.encode(fieldsByKey, forKey: .fields)
        try container.encodeIfPresent(creationDate, forKey: .creationDate)
        try container.encodeIfPresent(modificationDate, forKey: .modificationDate)
        try container.encodeIfPresent(recordChangeTag, forKey: .recordChangeTag)
        try container.encode(changedKeys(), forKey: .changedKeys)
        try container.encodeIfPresent(syncAuthor, forKey: .syncAuthor)
    }
}
