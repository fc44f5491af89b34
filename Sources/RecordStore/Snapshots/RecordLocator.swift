/// Where a record's latest event lies, as a store's key index checkpoint knows it: what a tool
/// needs to walk one record's versions backwards by their `previous` headers (FORMAT.md §10.1)
/// instead of reading the whole zone.
///
/// ```swift
/// if let locator = RecordLocator(storeDirectory: path), let zone = locator.zone("Notes", incarnation: 1) {
///     print(zone.covered, zone.latestEvent(of: "note-1"))
/// }
/// ```
///
/// Read in place, as a database's open reads it (the file is mapped and its CRCs checked). It
/// knows the log below each zone's covered offset; a caller reads the events after it itself.
package struct RecordLocator: Sendable {
    /// One zone's part of the checkpoint.
    package struct Zone: Sendable {
        /// Every event of the zone below this offset is reflected.
        package let covered: Int64
        fileprivate let records: KeyIndex
        fileprivate let deleted: DeletedNames

        /// The offset of `name`'s latest event below ``covered``: its latest save while it is
        /// live, else its latest delete; `.none` when it had no event there; `.unknown` when the
        /// checkpoint cannot tell (written before deletes were kept). An offset from a delete
        /// is found by its name's hash: the caller checks the key it finds there.
        package func latestEvent(of name: String) -> PreviousEvent {
            if let entry = records[name] { return .at(entry.offset) }
            switch deleted.previousOfRecreated(name) {
            case let offset? where offset >= 0: return .at(offset)
            case .some: return .none
            case nil: return .unknown
            }
        }
    }

    private let zones: [String: KeyIndexSnapshot.Zone]

    /// Reads the checkpoint of the store at `storeDirectory`; nil when it has none, or one that
    /// is damaged or of a version this code does not read.
    package init?(storeDirectory: String) {
        let path = storeDirectory + "/" + KeyIndexSnapshot.directoryName + "/" + KeyIndexSnapshot.fileName
        guard let snapshot = KeyIndexSnapshot.read(path: path, reject: { _ in }) else { return nil }
        zones = snapshot.zones
    }

    /// The zone's part, when the checkpoint has one of this incarnation (the offset of the
    /// zone's latest `createZone` event in the system partition).
    package func zone(_ name: String, incarnation: Int64) -> Zone? {
        guard let zone = zones[name], zone.covered.incarnation == incarnation else { return nil }
        return Zone(covered: zone.covered.offset, records: zone.records, deleted: zone.deleted)
    }
}
