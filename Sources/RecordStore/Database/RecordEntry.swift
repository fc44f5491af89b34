import Foundation

/// What the store keeps in memory about one live record: enough to check a change tag, find the
/// record's latest version in the log, and cascade deletes, without reading the log.
struct RecordEntry: Sendable, Equatable {
    var recordType: String
    var changeTag: String
    /// The offset of the record's latest save event in its zone's partition.
    var offset: Int64
    /// Names of records this one references with `.deleteSelf`: deleting one of them deletes this.
    var cascadeTargets: [String]
    /// When the record was first saved: kept so an update need not read the old version.
    var creationDate: Date?
}
