import RecordLog

// A read-only database beside a writer in another process (FORMAT.md §7.5): it serves the
// writer's durable commits and catches up with later ones.
extension Database {
    /// Catches a read-only database up with what the store's writer — another process — has
    /// made durable since: new commits are applied to the records, folded into the registered
    /// views and delivered to the subscriptions; zones created or deleted appear or go. A
    /// database open for writing is its own writer: this returns at once.
    ///
    /// Every read of a read-only database (fetches, queries, change fetches, zone lists) does
    /// this first, and its watcher does it every `refreshInterval` when the writer has made new
    /// commits durable, so views and subscriptions move without a read; call it to see the
    /// writer's latest commits at once. It costs a look at each zone's durable-end mark (a 1 KiB
    /// read) and the store's zone list when nothing changed, and replays only the new commits
    /// when something did.
    ///
    /// The commits a refresh finds reach each subscription together, as one publication per
    /// zone: a zone or database subscription is notified once for all of them, a query
    /// subscription once per matching record change, in log order. That is on purpose: a zone
    /// notification means "this zone changed: fetch its changes since your token" — the fetch
    /// returns every commit, however many notifications came — and CloudKit coalesces its
    /// pushes the same way; one per commit would only wake an app more often for the same
    /// fetch. A query subscription loses nothing either: every save and delete is its own
    /// notification.
    ///
    /// ```swift
    /// let reader = try await Database(directory: path, readOnly: true)
    /// let stream = try reader.notifications(for: "notes")  // saved by the writer
    /// try await reader.refresh()                            // delivers the writer's new commits
    /// ```
    ///
    /// - Throws: `LogError.corruptBatch` for damage below what the writer made durable;
    ///   `internalError` for an event that cannot be decoded.
    ///
    /// A database over a cluster's shared log (RecordPostgres) is one of several writers: this
    /// fetches the other writers' commits and applies them the same way.
    public func refresh() async throws {
        try checkOpen()
        guard isReadOnly || log.isShared else { return }
        try await log.pull()
        try await administration.run { try catchUp() }
    }

    /// The catch-up every read of a read-only database does first (``refresh()``). A shared
    /// log's owner refreshes before each request instead, once for all it reads and writes.
    func refreshBeforeRead() async throws {
        guard isReadOnly else { return }
        try await refresh()
    }

    /// Reads what the writer made durable since the last look and applies it; tells the
    /// subscriptions after the state lock is released, one publication per zone that changed.
    ///
    /// The log catches up under the state lock, with the state: a view registered meanwhile is
    /// built from exactly the events the state holds, and is then folded only what follows.
    private func catchUp() throws {
        var zoneChanges: [(zoneID: ZoneID, deleted: Bool)] = []
        var recordChanges: [(zoneID: ZoneID, changes: [RecordChange])] = []
        try state.withLock { state in
            // A writer of a shared log has applied every offset below each zone's end (its own
            // commits, under this lock): only what the refresh installs is new to it.
            var applied: [ZoneID: Int64] = [:]
            if !isReadOnly { for (zoneID, zone) in state.zones { applied[zoneID] = zone.partition.endOffset } }
            guard try log.refresh() else { return }
            for (zoneID, end) in applied { state.zones[zoneID]?.replayedEnd = end }
            let systemGrew = state.systemReplayedEnd < system.endOffset
            // The system partition holds only zone and subscription events: read whole, it is small.
            let registry = try ZoneRegistry(system: system)
            if systemGrew { try loadSubscriptions() }
            state.systemReplayedEnd = system.endOffset
            let present = Set(log.partitionNames)
            // Deleted, or deleted and created again (another incarnation): gone with its records.
            for (zoneID, zone) in state.zones where registry.live[zoneID.zoneName] != zone.incarnation {
                state.zones[zoneID] = nil
                for view in state.views { _ = view.fold(.listed([.zoneDeleted(zoneID)]), false) }
                zoneChanges.append((zoneID, true))
            }
            // Created, once the writer has made its directory (a shared log's writer makes it).
            for (name, incarnation) in registry.live.sorted(by: { $0.key < $1.key }) where present.contains(name) || !isReadOnly {
                let zoneID = ZoneID(zoneName: name)
                guard state.zones[zoneID] == nil else { continue }
                let partition = isReadOnly ? try log.partition(named: name) : try log.createPartition(named: name)
                state.zones[zoneID] = ZoneState(zoneID: zoneID, partition: partition, incarnation: incarnation)
                zoneChanges.append((zoneID, false))
            }
            for zoneID in state.zones.keys.sorted(by: { $0.zoneName < $1.zoneName }) {
                guard var zone = state.zones.removeValue(forKey: zoneID) else { continue }
                defer { state.zones[zoneID] = zone }
                let end = zone.partition.endOffset
                guard end > zone.replayedEnd else { continue }
                // What the views catch up on, when any is registered.
                let events = state.views.isEmpty ? nil : ReplayChunk(reserving: 0)
                if zone.partition.expiryOffset > zone.replayedEnd {
                    // A compaction dropped deletes this reader had not read yet: rebuilt from
                    // the log, the zone tells what it lost (FORMAT.md §7.5).
                    let (rebuilt, changes) = try zone.rebuiltFromLog(to: end, views: events)
                    zone = rebuilt
                    if let events, !events.isEmpty { for view in state.views { _ = view.fold(.read(events), false) } }
                    if !changes.isEmpty { recordChanges.append((zoneID, changes)) }
                    continue
                }
                var changes: [RecordChange] = []
                try zone.partition.forEachRecordInPlace(from: zone.replayedEnd, to: end, cached: false) { event in
                    if let change = try zone.follow(event, views: events) { changes.append(change) }
                    return true
                }
                zone.replayedEnd = end
                // Whole commits only: the partition ends on a commit's boundary (the writer's mark).
                if let events, !events.isEmpty { for view in state.views { _ = view.fold(.read(events), false) } }
                if !changes.isEmpty { recordChanges.append((zoneID, changes)) }
            }
        }
        for change in zoneChanges { subscriptions.publishZoneChange(change.zoneID, deleted: change.deleted) }
        for (zoneID, changes) in recordChanges { subscriptions.publish(in: zoneID) { changes } }
    }
}
