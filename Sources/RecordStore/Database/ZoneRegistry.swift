import RecordLog

/// What the system partition says about the zones: which exist (and the offset of each one's
/// creation, its incarnation) and which were deleted — and how that squares with the zone
/// directories on disk. The database's open and `log-inspect verify` read it the same way.
package struct ZoneRegistry: Sendable, Equatable {
    /// Each live zone's name and the offset of its `createZone` event.
    package var live: [String: Int64] = [:]
    /// Zones whose latest event is a durable `deleteZone`: their files may go.
    package var deleted: Set<String> = []

    /// Reads every zone event of the system partition.
    ///
    /// - Throws: `internalError` when it creates a zone whose name breaks the rules.
    package init(system: any LogPartition) throws {
        try system.forEachRecord(from: 0, to: nil) { event in
            guard let name = event.keyString else { return true }
            switch StoredEvent.kind(of: event) {
            case .createZone?:
                do throws(RecordStoreError) {
                    try ZoneID(zoneName: name).validate()
                } catch {
                    throw RecordStoreError(
                        .internalError, "The store's system log creates a zone at offset \(event.offset) whose name is invalid: \(error.message)")
                }
                live[name] = event.offset
                deleted.remove(name)
            case .deleteZone?:
                live[name] = nil
                deleted.insert(name)
            default: break
            }
            return true
        }
    }

    /// Zone directories whose zone a durable `deleteZone` removed: a crash came between the
    /// event and the removal of the files, which the open finishes.
    package func deletedButPresent(partitions: [String]) -> [String] {
        partitions.filter { $0 != StoredEvent.systemPartition && live[$0] == nil && deleted.contains($0) }
    }

    /// Zone directories the system partition does not account for — neither created nor
    /// deleted there (a damaged or lost event). They are reported and kept, never removed:
    /// only a durable `deleteZone` removes a zone's files.
    package func unregistered(partitions: [String]) -> [String] {
        partitions.filter { $0 != StoredEvent.systemPartition && live[$0] == nil && !deleted.contains($0) }.sorted()
    }

    /// Live zones with no directory. A zone's directory is created only after its `createZone`
    /// is durable, so a crash in between leaves this, and the open creates it, empty; outside
    /// that window it means the directory was removed by hand.
    package func withoutDirectory(partitions: [String]) -> [String] {
        let present = Set(partitions)
        return live.keys.filter { !present.contains($0) }.sorted()
    }
}
