/// What log-replay refuses, each with a message that says what to do instead.
///
/// ```swift
/// do { _ = try store.state(zone: "Notes", at: .offset(99)) }
/// catch let error as ReplayError { print(error) }   // "offset 99 is beyond the end of zone …"
/// ```
public enum ReplayError: Error, Sendable, Equatable {
    /// The directory is not a store that can be opened read-only.
    case cannotOpen(path: String, reason: String)
    /// No zone of this name; `available` lists the store's zones.
    case unknownZone(String, available: [String])
    /// No event of the zone has this record name.
    case unknownRecord(zone: String, recordName: String)
    /// An offset past the zone's end offset (the next offset to be written).
    case offsetBeyondEnd(zone: String, offset: Int64, end: Int64)
    /// `--to-offset` without `--zone` past every zone's end offset.
    case offsetBeyondEveryZone(offset: Int64, largestEnd: Int64)
    /// A negative offset.
    case negativeOffset(Int64)
    /// An offset before the zone's first offset.
    case offsetBeforeStart(zone: String, offset: Int64, start: Int64)
    /// `diff` with `--from` after `--to`.
    case reversedRange(from: Int64, to: Int64)
    /// `export` into a path that exists and is not an empty directory.
    case outputExists(String)
    /// `export` at a time before the store's first event: there would be no store.
    case beforeStoreCreation(time: Int64, firstEvent: Int64)
    /// A zone whose log does not start at offset 0 cannot be exported with the same offsets.
    case zoneNotFromZero(zone: String, start: Int64)
    /// Writing the exported store failed.
    case writeFailed(path: String, reason: String)
    /// The exported log was given other offsets than the original (a bug, never expected).
    case exportOffsetMismatch(zone: String, expected: Int64, got: Int64)
    /// The notes views read only the Notes zone.
    case notNotesZone(String)
    /// Reading the zone's log failed (damage found while reading, an I/O error).
    case unreadable(zone: String, reason: String)
    /// A save event whose value is not a record encoding.
    case undecodableEvent(zone: String, offset: Int64, reason: String)
    /// `bisect`'s invariant command could not be started.
    case invariantFailedToRun(command: String, reason: String)
}
