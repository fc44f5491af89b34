/// A `Codable` type stored as a record: it names its record type and lists its fields, and
/// ``encodedRecord(in:)`` / ``init(decoding:)`` map it to and from a ``Record``.
///
/// ```swift
/// struct Note: RecordCodable {
///     enum Fields: String, CaseIterable { case id, folder, title, tags, createdAt, modifiedAt }
///     static let recordType = "Note"
///     static let referenceFields: [Fields: Reference.Action] = [.folder: .deleteSelf]
///
///     var id: String            // the record name
///     var folder: String        // stored as a .deleteSelf reference to the folder's record
///     var title: String
///     var tags: [String]        // a list field
///     var createdAt: Date?      // the record's creationDate, read-only
///     var modifiedAt: Date?     // the record's modificationDate, read-only
/// }
/// let record = try note.encodedRecord(in: zone)
/// let again = try Note(decoding: record)
/// ```
///
/// **Fields.** Each case's raw value is a property's coding key and the record's field key, so
/// the cases must match the properties (or the model's `CodingKeys`); encoding a key that
/// `Fields` lacks fails with ``RecordMappingError/unknownField(_:)``. The non-system fields are
/// the ``desiredKeys`` of queries, so only the model's fields are fetched.
///
/// **System fields.** Three cases have roles instead of fields (override the defaults to rename):
/// - ``identifierField`` (default: the case `id`) is the record name. A `String` (or any type
///   that encodes as a string, like `UUID`) names the record in the zone passed when encoding; a
///   ``RecordID`` carries its own zone. A model without one gets a new UUID name per encoding.
/// - ``creationDateField`` / ``modificationDateField`` (default: `createdAt` / `modifiedAt`) read
///   the record's `creationDate` / `modificationDate`; encoding ignores them (the store sets
///   them). Make them `Date?`: they are nil until the record is saved.
///
/// **Values.** `String`; every integer type (as `int64`; `UInt64` above `Int64.max` fails);
/// `Double`, `Float`; `Bool`; `Date` (milliseconds); `Data` and `[UInt8]` (bytes); ``RecordID``
/// and ``Reference`` (references); ``Location``; ``FieldValue`` itself; anything that encodes as
/// one of these (`UUID`, `String`-backed enums, …); and arrays (or sets) of these, nested up to
/// ``RecordLimits/maximumListDepth``, as lists. An optional that is nil is an absent field.
/// Nested structs and dictionaries are not supported:
/// ``RecordMappingError/unsupportedValue(field:reason:)``.
///
/// **References.** A field listed in ``referenceFields`` is stored as a reference with the given
/// action; its property may be a `String` (or `[String]`) of record names in the record's zone,
/// or a ``RecordID``. A `String` property also reads a reference field as its record name.
public protocol RecordCodable: Codable {
    /// The field keys: one case per stored property, raw values as the coding keys.
    associatedtype Fields: CaseIterable & RawRepresentable<String> & Hashable
    /// The record type the model is stored as, e.g. `"Note"`.
    static var recordType: String { get }
    /// The property that is the record name; default: the case `id`, if any.
    static var identifierField: Fields? { get }
    /// The property that reads the record's `creationDate`; default: the case `createdAt`, if any.
    static var creationDateField: Fields? { get }
    /// The property that reads the record's `modificationDate`; default: the case `modifiedAt`, if any.
    static var modificationDateField: Fields? { get }
    /// Fields stored as references to other records of the zone, with the action of each; default: none.
    static var referenceFields: [Fields: Reference.Action] { get }
}

extension RecordCodable {
    /// The case `id`, if `Fields` has one.
    public static var identifierField: Fields? { Fields(rawValue: "id") }
    /// The case `createdAt`, if `Fields` has one.
    public static var creationDateField: Fields? { Fields(rawValue: "createdAt") }
    /// The case `modifiedAt`, if `Fields` has one.
    public static var modificationDateField: Fields? { Fields(rawValue: "modifiedAt") }
    /// No reference fields.
    public static var referenceFields: [Fields: Reference.Action] { [:] }

    /// The keys of the fields the model stores (its `Fields` minus the identifier and system
    /// dates): what queries pass as `desiredKeys`.
    public static var desiredKeys: [String] { RecordFieldMapping(Self.self).storedKeys }

    /// Decodes a model from `record`. A field the record lacks reads as nil for an optional
    /// property and fails for any other; fields the model does not know are ignored.
    ///
    /// - Throws: ``RecordMappingError``: ``RecordMappingError/wrongRecordType(expected:found:)``,
    ///   ``RecordMappingError/missingField(_:)`` naming a missing non-optional field,
    ///   ``RecordMappingError/typeMismatch(field:expected:found:)`` naming a field of another kind,
    ///   ``RecordMappingError/valueOutOfRange(field:value:type:)``; or the model's own errors.
    public init(decoding record: Record) throws {
        self = try RecordDecoder().decode(Self.self, from: record)
    }

    /// A new, unsaved record of this model in `zoneID` (or in the zone of a ``RecordID``
    /// identifier). Nil optionals are absent fields; the system dates are left to the store.
    ///
    /// - Throws: ``RecordMappingError`` naming the field that does not map (or the model's own errors).
    public func encodedRecord(in zoneID: ZoneID = .default) throws -> Record {
        try RecordEncoder().encode(self, in: zoneID)
    }

    /// `record` (as fetched) with this model's fields: fields whose value changed are set, the
    /// model's fields it has no value for are removed, other fields and the system fields (change
    /// tag included) are kept — so only real changes count as changed keys, and saving it detects
    /// conflicts.
    ///
    /// - Throws: ``RecordMappingError`` naming the field that does not map, a record of another
    ///   type, or an identifier that names another record.
    public func encodedRecord(updating record: Record) throws -> Record {
        try RecordEncoder().encode(self, updating: record)
    }
}
