import Foundation

// A record taken apart and put together from its parts, for codecs outside this module (the
// server's JSON): its fields in key order without a copy of the array, and a record built from
// fields in any order with the keys a save writes.
extension Record {
    /// Calls `body` with each field, in key order.
    package func forEachField(_ body: (String, FieldValue) throws -> Void) rethrows {
        for field in fields { try body(field.key, field.value) }
    }

    /// A record from its parts, as a request sends it: `fields` in any order (each key once),
    /// `changedKeys` the keys a save writes — a changed key without a field is a removal.
    package init(
        recordType: String, recordID: RecordID, fields: [(key: String, value: FieldValue)], creationDate: Date?,
        modificationDate: Date?, recordChangeTag: String?, changedKeys: Set<String>
    ) {
        self.init(
            recordType: recordType, recordID: recordID,
            sortedFields: fields.sorted { $0.key < $1.key }.map { Field(key: $0.key, value: $0.value) },
            creationDate: creationDate, modificationDate: modificationDate, recordChangeTag: recordChangeTag,
            changedKeys: changedKeys)
    }
}
