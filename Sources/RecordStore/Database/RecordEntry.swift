import Foundation

/// What the store keeps in memory about one live record: enough to find the record's latest
/// version in the log, know its type and creation date, and cascade deletes, without reading the
/// log. Fixed-size (24 bytes, no references): a zone's entries are one contiguous array
/// (`KeyIndex`). The change tag is not kept: it is the one in the record at `offset`.
struct RecordEntry: Sendable, Equatable {
    /// `creationMillis` of a record without a creation date.
    static let noCreationDate = Int64.min
    /// `target` of a record without `.deleteSelf` references.
    static let noTarget: Int32 = -1

    /// The offset of the record's latest save event in its zone's partition.
    var offset: Int64
    /// When the record was first saved, in milliseconds since 1970 (`noCreationDate` for none):
    /// kept so an update need not read the old version.
    var creationMillis: Int64
    /// The record type, as an id of the zone's `TypeTable`.
    var typeID: Int32
    /// The first record this one references with `.deleteSelf`, as an id of the zone's
    /// `CascadeTable` (`noTarget` for none); further ones are kept aside, being rare.
    var target: Int32

    /// The creation date as a `Date`.
    var creationDate: Date? {
        creationMillis == Self.noCreationDate ? nil : MillisecondDate.date(milliseconds: creationMillis)
    }

    /// The milliseconds kept for `date`.
    static func millis(_ date: Date?) -> Int64 {
        date.flatMap(MillisecondDate.milliseconds(of:)) ?? noCreationDate
    }
}
