/// Decodes a ``RecordCodable`` model from a ``Record``; see ``RecordCodable`` for the mapping.
///
/// ```swift
/// let record = try await database.record(for: id)
/// let note = try RecordDecoder().decode(Note.self, from: record)
/// ```
package struct RecordDecoder: Sendable {
    /// Creates a decoder.
    package init() {}

    /// The model stored in `record`. A field the record lacks reads as nil for an optional
    /// property and fails for any other; fields the model does not know are ignored.
    ///
    /// - Throws: ``RecordMappingError``: ``RecordMappingError/wrongRecordType(expected:found:)``,
    ///   ``RecordMappingError/missingField(_:)`` naming a missing non-optional field,
    ///   ``RecordMappingError/typeMismatch(field:expected:found:)`` naming a field of another kind,
    ///   ``RecordMappingError/valueOutOfRange(field:value:type:)``; or the model's own errors.
    package func decode<Model: RecordCodable>(_ type: Model.Type, from record: Record) throws -> Model {
        guard record.recordType == Model.recordType else {
            throw RecordMappingError.wrongRecordType(expected: Model.recordType, found: record.recordType)
        }
        return try Model(from: RecordFieldsDecoder(record: record, mapping: RecordFieldMapping(Model.self)))
    }
}
