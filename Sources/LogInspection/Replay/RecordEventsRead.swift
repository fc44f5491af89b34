import RecordLog

/// A record's events as ``ReplayStore/recordEvents(zone:recordName:progress:)`` found them.
package struct RecordEventsRead: Sendable {
    /// The events, oldest first.
    package var events: [LogRecord]
    /// Whether they were found by walking the record's versions (else by reading the zone whole).
    package var walked: Bool
    /// How many events of the zone were read in passing: the zone's, or the walk's scans'.
    package var scannedEvents: Int64
    /// How many versions the walk read one by one (one batch each; the latest too when the
    /// checkpoint located it).
    package var versionsRead: Int
}
