import Foundation
import RecordStore

/// What the Notes mapping reads of a record, whether decoded (`Record`, on live commits) or read
/// in place (`StoredRecord`, on replay): one mapping for both, so that both fold to the same view.
protocol NotesRecordSource {
    var recordID: RecordID { get }
    var creationDate: Date? { get }
    var modificationDate: Date? { get }
    subscript(key: String) -> FieldValue? { get }
    /// Whether the record type is `type`.
    func hasRecordType(_ type: String) -> Bool
}

extension Record: NotesRecordSource {
    func hasRecordType(_ type: String) -> Bool { recordType == type }
}

extension StoredRecord: NotesRecordSource {}
