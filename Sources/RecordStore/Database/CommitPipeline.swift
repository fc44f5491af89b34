import Foundation
import RecordLog

/// One zone's part of a `modifyRecords` call as it moves through the commit pipeline: each step
/// fills in what it makes.
///
/// The steps, in order (``Database/modifyRecords(saving:deleting:savePolicy:atomically:clientChangeTokenData:)``):
/// 1. **plan** — check every item against the zone's live records (``ZonePlanner``); in a
///    synced zone, add each written record's pending change (``Database/trackChanges(_:zones:now:)``);
/// 2. **encode** — the plan as one Kafka batch, change tags set from the offsets it will get,
///    each event naming its record's previous one (`previous`, FORMAT.md §10.1);
/// 3. **write** — append the batch (not yet durable), then fold it into the views, apply it to
///    the zone's state and file each item's result: steps 1–3 run under the database's lock, so
///    the state moves in log order;
/// 4. **publish** — outside the lock, await durability (concurrent commits share one fdatasync),
///    then tell the subscriptions.
///
/// Which of these run on a second thread or overlap another is ``CommitTuning``'s choice, read
/// in one place per trick.
struct ZoneCommit: Sendable {
    var plan: ZonePlan
    /// The request's client change token, written with the commit (on its last event).
    var clientToken: [UInt8]?
    /// The encoded batch, from step 2 until step 3 writes it; nil for a plan with nothing to write.
    var batch: EncodedBatch?
    /// The saves' values as the batch holds them, from step 2 until step 3 hands them to the views.
    var values: CommitValues?
    /// The written batch's durability, from step 3.
    var pending: PendingAppend?
    /// The partition written, from step 3: step 4 asks whether it is due for a compaction.
    var partition: (any LogPartition)?
    /// Whether the zone's log may hold an event a compaction could remove, from step 3
    /// (``ZoneState/mayHoldReplacedEvents``): an insert-only log is compacted in the background
    /// only to re-batch small commits.
    var mayHoldReplacedEvents = true
    /// The views whose fold of this commit was queued rather than run at once, from step 3.
    var queuedFolds: [ViewFeed] = []

    init(plan: ZonePlan, clientToken: [UInt8]? = nil) {
        self.plan = plan
        self.clientToken = clientToken
    }

    var itemCount: Int { plan.saves.count + plan.deletes.count }
}

extension Database {
    /// Step 1: plans each zone's part of the request against its live records; for an app's
    /// request to a synced zone, adds the pending changes of what it writes (``trackChanges(_:zones:now:)``).
    func plan(
        _ requests: [ZoneRequest], policy: SavePolicy, now: Date, zones: [ZoneID: ZoneState], clientToken: [UInt8]? = nil,
        mode: WriteMode = .app
    ) throws -> [ZoneCommit] {
        try requests.map { request in
            var planner = ZonePlanner(zone: zones[request.zoneID], zoneID: request.zoneID, policy: policy, now: now, tuning: tuning)
            planner.mode = mode
            if mode == .app, zones[request.zoneID]?.isSynced == true {
                planner.author = SyncAuthor(editedAt: MillisecondDate.milliseconds(of: now) ?? 0, device: storeID)
            }
            var commit = ZoneCommit(plan: try planner.plan(saving: request.saving, deleting: request.deleting), clientToken: clientToken)
            if mode == .app { try trackChanges(&commit, zones: zones, now: now) }
            return commit
        }
    }

    /// For an atomic request: throws `partialFailure` naming each failed item's error and
    /// `batchRequestFailed` for every other item, when any item failed.
    static func refuseIfAnyFailed(_ commits: [ZoneCommit], saving: [Record], deleting: [RecordID]) throws {
        guard commits.contains(where: { !$0.plan.failures.isEmpty }) else { return }
        var errors: [RecordID: RecordStoreError] = [:]
        for commit in commits { errors.merge(commit.plan.failures) { first, _ in first } }
        for id in saving.map(\.recordID) + deleting where errors[id] == nil {
            errors[id] = RecordStoreError.batchRequestFailed(id)
        }
        throw RecordStoreError.partialFailure(errors, atomic: true)
    }

    /// Step 2: encodes a zone's plan as one batch, setting each save's change tag from the offset
    /// it will get (the caller holds the lock until the batch is written) and clearing its
    /// changed keys; the request's client change token goes in a header of the batch's last event. The plan is changed in place: no record is copied between planning and
    /// writing but into the results.
    func encode(_ commit: inout ZoneCommit, state: inout State) throws {
        // Taken out of the dictionary and put back, as `write` does: a copy of the zone's state
        // retained and released each of its tables, on every commit.
        guard !commit.plan.isEmpty, let zone = state.zones.removeValue(forKey: commit.plan.zoneID) else { return }
        defer { state.zones[commit.plan.zoneID] = zone }
        var builder = state.commitBuffers.takeBuilder()
        defer { state.commitBuffers.recycle(builder) }
        let firstOffset = zone.partition.endOffset
        commit.plan.firstOffset = firstOffset
        // One timestamp for the whole commit: it is one atomic event in time.
        let timestamp = RecordBatchBuilder.now()
        let lastIndex = commit.itemCount - 1
        /// The headers of event `index`: `headers`, and the client token's on the last one.
        func withClientToken(_ headers: EncodedLogHeaders, index: Int) -> EncodedLogHeaders {
            guard index == lastIndex, let token = commit.clientToken else { return headers }
            var last = headers
            last.append(LogHeader(key: StoredEvent.clientChangeTokenHeader, value: token))
            return last
        }
        let values = state.commitBuffers.takeValues()
        for index in commit.plan.saves.indices {
            let changeTag = ChangeTag.make(incarnation: zone.incarnation, offset: firstOffset + Int64(index))
            commit.plan.saves[index].record.recordChangeTag = changeTag
            commit.plan.saves[index].record.clearChangedKeys()
            // The planner validated the record (a merged update is the server's valid copy with
            // the caller's validated keys); only the size is checked again, as encoded.
            try values.append(commit.plan.saves[index].record, bound: commit.plan.saves[index].sizeBound)
            let headers = withClientToken(
                state.commitBuffers.headers.saveHeaders(
                    recordType: commit.plan.saves[index].record.recordType, changeTag: changeTag, previous: commit.plan.saves[index].previous),
                index: index)
            values.withValue(index) { value in
                builder.append(key: commit.plan.saves[index].record.recordID.recordName, value: value, headers: headers, timestamp: timestamp)
            }
        }
        for (index, delete) in zip(commit.plan.saves.count..., commit.plan.deletes) {
            builder.append(
                key: delete.name, value: nil,
                headers: withClientToken(
                    state.commitBuffers.headers.deleteHeaders(recordType: delete.recordType, previous: delete.previous), index: index),
                timestamp: timestamp)
        }
        let batch = try builder.encode(
            compression: log.options.compression, reusing: state.commitBuffers.takeBatchBytes(), twoThreadsFrom: tuning.twoThreadCompressionBytes)
        guard batch.bytes.count <= log.options.maxBatchBytes else {
            throw RecordStoreError(
                .limitExceeded,
                "The request's records in zone \(commit.plan.zoneID) add up to \(batch.bytes.count) bytes, over the \(log.options.maxBatchBytes)-byte limit of one commit; split the request.")
        }
        commit.batch = batch
        commit.values = values
    }

    /// Step 3: writes a zone's batch (not yet durable), folds it into the views, applies it to the
    /// zone's state and files each item's outcome in `results`.
    func write(_ commit: inout ZoneCommit, results: inout ModifyResult, state: inout State) throws {
        fileFailures(commit.plan, into: &results)
        // The zone is taken out of the dictionary while it changes, so its tables change in place.
        guard let batch = commit.batch.take(), var zone = state.zones.removeValue(forKey: commit.plan.zoneID) else { return }
        defer { state.zones[commit.plan.zoneID] = zone }
        let large = commit.itemCount >= tuning.largeCommitItems
        let pending = try zone.partition.appendWithoutWaiting(batch)
        commit.pending = pending
        commit.partition = zone.partition
        // Written: its memory serves the next commit, and its fdatasync runs while it is applied
        // below.
        state.commitBuffers.recycle(batch)
        if commit.itemCount >= tuning.earlyDurableItems { pending.startDurable() }
        commit.queuedFolds = fold(commit.plan, values: commit.values.take(), into: state.views, inBackground: large)
        apply(commit.plan, to: &zone, results: &results)
        commit.mayHoldReplacedEvents = zone.mayHoldReplacedEvents
        if let token = commit.clientToken {
            zone.clientToken = ClientChangeTokenMark(data: token, offset: pending.offsets.upperBound - 1, pending: pending)
        }
    }

    /// Files the items the plan refused.
    private func fileFailures(_ plan: borrowing ZonePlan, into results: inout ModifyResult) {
        guard !plan.failures.isEmpty else { return }
        let requestedDeletes = Set(plan.requestedDeletes)
        for (id, error) in plan.failures {
            if requestedDeletes.contains(id) { results.deleteResults[id] = .failure(error) } else { results.saveResults[id] = .failure(error) }
        }
    }

    /// Hands the views the whole commit at once; a large commit's fold runs on each view's own
    /// queue while this one applies it to the state and returns (``ViewFeed``). Returns the
    /// feeds of the views whose fold was queued.
    private func fold(_ plan: borrowing ZonePlan, values: CommitValues?, into views: [ViewSink], inBackground: Bool) -> [ViewFeed] {
        guard !views.isEmpty, let values else { return [] }
        let events = ViewFoldEvents.written(plan, values: values)
        var queued: [ViewFeed] = []
        for view in views where view.fold(events, inBackground) { queued.append(view.feed) }
        return queued
    }

    /// Applies a written plan to the zone's key index and field indexes and files each item's
    /// success.
    private func apply(_ plan: borrowing ZonePlan, to zone: inout ZoneState, results: inout ModifyResult) {
        let fileLater = plan.saves.count >= tuning.lazySaveResultsItems
        if fileLater { results.fileSavedLater(plan.saves) }
        for index in plan.saves.indices {
            // Read where the plan holds it: a copy of each record cost a retain and a release.
            zone.applySave(
                plan.saves[index].record, offset: plan.firstOffset + Int64(index), targets: plan.saves[index].targets,
                nameHash: plan.saves[index].nameHash)
            if !fileLater { results.saveResults[plan.saves[index].record.recordID] = .success(plan.saves[index].record) }
        }
        // Requests delete few records or many: a set keeps telling them apart linear.
        let requestedDeletes = plan.requestedDeletes.isEmpty ? [] : Set(plan.requestedDeletes)
        for (offset, delete) in zip((plan.firstOffset + Int64(plan.saves.count))..., plan.deletes) {
            zone.applyDelete(name: delete.name, offset: offset)
            let id = RecordID(recordName: delete.name, zoneID: plan.zoneID)
            if requestedDeletes.contains(id) { results.deleteResults[id] = .success(()) }
        }
    }

    /// Step 4, after the lock: awaits each written commit's durability, then tells the
    /// subscriptions what it changed, then lets the views that queued its fold catch up to at
    /// most that fold (so that a writer never runs more than a commit ahead of a view). A zone
    /// whose log is due for compaction gets one in the background (``CompactionPolicy``): to
    /// remove replaced events, unless nothing in it could be removed
    /// (``ZoneState/mayHoldReplacedEvents``), or to re-batch small commits.
    func publish(_ commits: [ZoneCommit]) async throws {
        for commit in commits { try await commit.pending?.durable() }
        for commit in commits where commit.pending != nil { subscriptions.publish(in: commit.plan.zoneID) { commit.plan.changes } }
        for commit in commits {
            guard let partition = commit.partition else { continue }
            let zoneID = commit.plan.zoneID
            compactor.considerCompacting(partition, mayHoldReplacedEvents: commit.mayHoldReplacedEvents) { [weak self] in
                self?.forgetDroppedDeletes(in: [zoneID])
            }
        }
        for commit in commits {
            for feed in commit.queuedFolds { await feed.awaitFolds(leaving: 1) }
        }
    }
}
