import Foundation

/// A type that wraps a ``Record`` and reads and writes its fields through a `String`-backed key
/// enum, as the original Notes app wrapped `CKRecord`.
///
/// ```swift
/// struct NoteRecord: RecordWrapper {
///     enum FieldKey: String { case title, folder, pinned }
///     static let recordType = "Note"
///     var record: Record
///     init(record: Record) { self.record = record }
///
///     var title: String { get { string(.title) ?? "" } set { setField(.title, .string(newValue)) } }
/// }
///
/// var note = NoteRecord(recordID: RecordID(recordName: "n1", zoneID: zone))
/// note.title = "Groceries"
/// note.setReference(.folder, to: folder.identifier, action: .deleteSelf)
/// let saved = NoteRecord(record: try await database.save(note.record))
/// saved.created       // set by the store
/// ```
///
/// Typed getters return nil both when the field is absent and when it holds another kind.
public protocol RecordWrapper {
    /// The field keys; each raw value is the record's field key.
    associatedtype FieldKey: RawRepresentable<String>
    /// The record type of the wrapped records, e.g. `"Note"`.
    static var recordType: String { get }
    /// The wrapped record.
    var record: Record { get set }
    /// Wraps `record` (as fetched, or new).
    init(record: Record)
}

extension RecordWrapper {
    /// Wraps a new, unsaved record of ``recordType`` named `recordID` (a new UUID name by default).
    public init(recordID: RecordID = RecordID()) {
        self.init(record: Record(recordType: Self.recordType, recordID: recordID))
    }

    /// Wraps `record` after checking that it is of ``recordType``.
    ///
    /// - Throws: ``RecordMappingError/wrongRecordType(expected:found:)``.
    public init(checking record: Record) throws(RecordMappingError) {
        guard record.recordType == Self.recordType else {
            throw .wrongRecordType(expected: Self.recordType, found: record.recordType)
        }
        self.init(record: record)
    }

    /// The record's ID: its name and zone.
    public var identifier: RecordID { record.recordID }
    /// When the record was first saved; nil before.
    public var created: Date? { record.creationDate }
    /// When the record was last saved; nil before.
    public var modified: Date? { record.modificationDate }
    /// The store's version tag of the record; nil before the first save.
    public var changeTag: String? { record.recordChangeTag }

    /// The value of field `key`, nil when absent.
    public func field(_ key: FieldKey) -> FieldValue? {
        record[key.rawValue]
    }

    /// Sets field `key` to `value`; nil removes the field.
    public mutating func setField(_ key: FieldKey, _ value: FieldValue?) {
        record[key.rawValue] = value
    }

    /// The value of field `key`, as ``field(_:)`` and ``setField(_:_:)``.
    public subscript(key: FieldKey) -> FieldValue? {
        get { field(key) }
        set { setField(key, newValue) }
    }
}
