extension Database {
    /// Forgets, in each of `zoneIDs`' deleted names, the deletes a compaction dropped: the
    /// entries below the zone's expiry offset (``DeletedNames``). Called once a compaction has
    /// run, asked for or in the background.
    ///
    /// The entries are listed from a copy outside the database's lock and removed under it, in
    /// place: a commit waits for the removals, not for a look at every entry.
    func forgetDroppedDeletes(in zoneIDs: [ZoneID]) {
        for zoneID in zoneIDs {
            let expiryOffset: Int64
            let dropped: [UInt64]
            do {
                // The copy ends with this scope, before the removal: the entries are not copied.
                guard let (deleted, expiry) = state.withLock({ state in state.zones[zoneID].map { ($0.deleted, $0.partition.expiryOffset) } })
                else { continue }
                guard expiry > deleted.forgottenBelow else { continue }
                expiryOffset = expiry
                dropped = deleted.dropped(below: expiry)
            }
            state.withLock { $0.zones[zoneID]?.deleted.forget(dropped, below: expiryOffset) }
        }
    }
}
