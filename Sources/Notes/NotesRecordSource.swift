import Foundation
import RecordStore

/// What the Notes mapping reads of a record, whether decoded (`Record`: a save's result, a fetched
/// record) or read in place (`StoredRecord`: every save the database folds into a view): one
/// mapping for both, so that the manager and the views map a record alike.
protocol NotesRecordSource {
    var recordID: RecordID { get }
    var creationDate: Date? { get }
    var modificationDate: Date? { get }
    subscript(key: String) -> FieldValue? { get }
    /// Whether the record type is `type`.
    func hasRecordType(_ type: String) -> Bool
    /// Calls `body` with the UTF-8 of the string field `key`, or nil when it holds no string.
    func withStringUTF8<Result>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result
    /// Calls `body` with the UTF-8 of the record name the reference field `key` points to, or nil
    /// when it holds no reference.
    func withReferenceNameUTF8<Result>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result
}

extension Record: NotesRecordSource {
    func hasRecordType(_ type: String) -> Bool { recordType == type }

    func withStringUTF8<Result>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard case .string(var text)? = self[key] else { return body(nil) }
        return text.withUTF8 { body($0) }
    }

    func withReferenceNameUTF8<Result>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard case .reference(let reference)? = self[key] else { return body(nil) }
        var name = reference.recordID.recordName
        return name.withUTF8 { body($0) }
    }
}

extension StoredRecord: NotesRecordSource {}
