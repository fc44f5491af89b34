/// Encodes a ``RecordCodable`` model as a ``Record``: each property of its `Fields` becomes a
/// field, its identifier the record name; see ``RecordCodable`` for the mapping.
///
/// ```swift
/// let record = try RecordEncoder().encode(note, in: ZoneID(zoneName: "Notes"))
/// try await database.save(record)
///
/// // Saving a change to a fetched record keeps its change tag, so the save detects conflicts:
/// let updated = try RecordEncoder().encode(editedNote, updating: fetchedRecord)
/// ```
package struct RecordEncoder: Sendable {
    /// Creates an encoder.
    package init() {}

    /// A new, unsaved record of `model` in `zoneID` (or in the zone of a ``RecordID`` identifier).
    /// Nil optionals are absent fields; the system dates are left to the store.
    ///
    /// - Throws: ``RecordMappingError`` naming the field that does not map (or the model's own errors).
    package func encode<Model: RecordCodable>(_ model: Model, in zoneID: ZoneID = .default) throws -> Record {
        let state = try encodeFields(model)
        let recordID = try state.recordID(in: zoneID)
        var record = Record(recordType: Model.recordType, recordID: recordID)
        for (key, value) in try state.values(in: recordID.zoneID) { record[key] = value }
        return record
    }

    /// `record` with the fields of `model`: fields whose value changed are set, the model's fields
    /// it has no value for are removed, other fields and the system fields (change tag included)
    /// are kept — so only real changes count as changed keys.
    ///
    /// - Throws: ``RecordMappingError/wrongRecordType(expected:found:)`` for a record of another type,
    ///   ``RecordMappingError/invalidIdentifier(field:reason:)`` when the model names another record,
    ///   or the errors of ``encode(_:in:)``.
    package func encode<Model: RecordCodable>(_ model: Model, updating record: Record) throws -> Record {
        guard record.recordType == Model.recordType else {
            throw RecordMappingError.wrongRecordType(expected: Model.recordType, found: record.recordType)
        }
        let state = try encodeFields(model)
        let zoneID = record.recordID.zoneID
        if state.hasIdentifier {
            let recordID = try state.recordID(in: zoneID)
            guard recordID == record.recordID else {
                throw RecordMappingError.invalidIdentifier(
                    field: Model.identifierField?.rawValue ?? "id",
                    reason: "it names \(recordID), but the record being updated is \(record.recordID)")
            }
        }
        let values = try state.values(in: zoneID)
        var updated = record
        for key in state.mapping.storedKeys where updated[key] != values[key] {
            updated[key] = values[key]
        }
        return updated
    }

    private func encodeFields<Model: RecordCodable>(_ model: Model) throws -> RecordEncodingState {
        let state = RecordEncodingState(mapping: RecordFieldMapping(Model.self))
        try model.encode(to: RecordFieldsEncoder(state: state))
        return state
    }
}
