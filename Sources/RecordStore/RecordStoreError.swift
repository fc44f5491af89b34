/// The one error type of RecordStore: a code that mirrors `CKError.Code`, a message that says what
/// to do, and the details that belong to the code.
///
/// Match a code directly in `catch`, as with CloudKit's `CKError`:
///
/// ```swift
/// do {
///     try record.validate()
/// } catch RecordStoreError.invalidArguments {
///     // fix the record
/// } catch let error as RecordStoreError where error.code == .serverRecordChanged {
///     let theirs = error.serverRecord
/// }
/// ```
public struct RecordStoreError: Error, Sendable, Hashable {
    /// What went wrong. Names and raw values are those of `CKError.Code` where the meaning is the same.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// A bug or an unexpected state inside the store; report it with the message.
        case internalError = 1
        /// Some items of a batch failed; `partialErrors` says which and why.
        case partialFailure = 2
        /// The record (or record type) does not exist.
        case unknownItem = 11
        /// The request is malformed: an invalid name, key, value or combination of items.
        case invalidArguments = 12
        /// The record changed on the server since it was fetched: `serverRecord` holds the
        /// server's copy, `clientRecord` the record as sent and `ancestorRecord` the version its
        /// change tag names.
        case serverRecordChanged = 14
        /// The change token is older than what the store retains; fetch from scratch (a nil token).
        case changeTokenExpired = 21
        /// This item was fine, but another item of the same atomic batch failed.
        case batchRequestFailed = 22
        /// The zone does not exist; create it first.
        case zoneNotFound = 26
        /// The request or the record is too large.
        case limitExceeded = 27
        /// A reference points at a record that does not exist.
        case referenceViolation = 31
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for a developer: what failed and what to do about it.
    public var message: String
    /// The record the error is about, when there is one.
    public var recordID: RecordID?
    /// The zone the error is about, when there is one.
    public var zoneID: ZoneID?
    /// For `serverRecordChanged`: the record as the server has it now — the basis to merge
    /// your changes into (CloudKit's `CKError.serverRecord`).
    public var serverRecord: Record?
    /// For `serverRecordChanged`: the record as the client sent it, its changed keys included
    /// (CloudKit's `CKError.clientRecord`).
    public var clientRecord: Record?
    /// For `serverRecordChanged`: the version of the record the client's change tag names — what
    /// the client's edits started from (CloudKit's `CKError.ancestorRecord`), read from the log.
    /// Nil when the client sent no change tag (it saved a new record over an existing name) or
    /// when that version is no longer in the log (compaction removed it); the message says which.
    public var ancestorRecord: Record?
    /// For `partialFailure`: the error of each item, keyed by record ID.
    public var partialErrors: [RecordID: RecordStoreError]

    /// Creates an error; the store makes these, tests and wrappers may too.
    public init(
        _ code: Code,
        _ message: String,
        recordID: RecordID? = nil,
        zoneID: ZoneID? = nil,
        serverRecord: Record? = nil,
        clientRecord: Record? = nil,
        ancestorRecord: Record? = nil,
        partialErrors: [RecordID: RecordStoreError] = [:]
    ) {
        self.code = code
        self.message = message
        self.recordID = recordID
        self.zoneID = zoneID
        self.serverRecord = serverRecord
        self.clientRecord = clientRecord
        self.ancestorRecord = ancestorRecord
        self.partialErrors = partialErrors
    }
}

extension RecordStoreError: CustomStringConvertible {
    /// The code's name followed by the message, e.g. `invalidArguments: …`.
    public var description: String { "\(code): \(message)" }
}

extension RecordStoreError.Code {
    /// Lets a code be a `catch` pattern: `catch RecordStoreError.unknownItem { … }`.
    public static func ~= (pattern: RecordStoreError.Code, error: any Error) -> Bool {
        (error as? RecordStoreError)?.code == pattern
    }
}

// Codes as members of the error type, so that `catch RecordStoreError.unknownItem` reads like
// CloudKit's `catch CKError.unknownItem`.
extension RecordStoreError {
    /// Pattern for `catch`: see ``Code/internalError``.
    public static let internalError = Code.internalError
    /// Pattern for `catch`: see ``Code/partialFailure``.
    public static let partialFailure = Code.partialFailure
    /// Pattern for `catch`: see ``Code/unknownItem``.
    public static let unknownItem = Code.unknownItem
    /// Pattern for `catch`: see ``Code/invalidArguments``.
    public static let invalidArguments = Code.invalidArguments
    /// Pattern for `catch`: see ``Code/serverRecordChanged``.
    public static let serverRecordChanged = Code.serverRecordChanged
    /// Pattern for `catch`: see ``Code/changeTokenExpired``.
    public static let changeTokenExpired = Code.changeTokenExpired
    /// Pattern for `catch`: see ``Code/batchRequestFailed``.
    public static let batchRequestFailed = Code.batchRequestFailed
    /// Pattern for `catch`: see ``Code/zoneNotFound``.
    public static let zoneNotFound = Code.zoneNotFound
    /// Pattern for `catch`: see ``Code/limitExceeded``.
    public static let limitExceeded = Code.limitExceeded
    /// Pattern for `catch`: see ``Code/referenceViolation``.
    public static let referenceViolation = Code.referenceViolation
}
