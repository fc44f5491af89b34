import Foundation
import RecordLog

extension Database {
    /// The default of the most items one `modifyRecords` call may hold: CloudKit's limit.
    public static let defaultMaximumItemsPerRequest = 400

    /// Saves and deletes records, each zone's part as one atomic, durable commit.
    ///
    /// With `atomically` (the default), if any item fails nothing is written and the call throws
    /// `partialFailure`, whose `partialErrors` hold each failed item's error and
    /// `batchRequestFailed` for the others. Without it, each item succeeds or fails alone.
    /// Deleting a record deletes, in the same commit, every record that references it with
    /// `.deleteSelf` (transitively).
    ///
    /// The call returns once the commit is durable (with `.fsync` durability). Other readers of
    /// this `Database` see it as soon as it is written, a moment before: the state in memory moves
    /// in log order under the lock while the fsync is awaited outside it, so that concurrent
    /// writers share one fsync. A commit of ``largeCommitItems`` or more starts its fsync as soon
    /// as it is written, while it is applied to the state, and is folded into the views on a
    /// second thread (``ViewFeed``: a view read after the call returns waits for the fold). If
    /// that fsync fails the log refuses all further work, and reopening the store shows exactly
    /// what reached the disk.
    ///
    /// - Throws: `limitExceeded` for more than `maximumItemsPerRequest` items (400 unless the
    ///   database was opened with another limit), `invalidArguments` for an ID named twice.
    public func modifyRecords(
        saving: [Record], deleting: [RecordID], savePolicy: SavePolicy = .ifServerRecordUnchanged, atomically: Bool = true
    ) async throws -> ModifyResult {
        try checkOpen()
        let count = saving.count + deleting.count
        guard count <= maximumItemsPerRequest else {
            throw RecordStoreError.tooManyItems(count, limit: maximumItemsPerRequest)
        }
        let requests = try ZoneRequest.split(saving: saving, deleting: deleting)
        let now = MillisecondDate.date(milliseconds: MillisecondDate.milliseconds(of: Date()) ?? 0)

        // One lock hold plans every zone, checks the request, encodes and writes: an atomic
        // request writes nothing unless every zone's part is clean, and no concurrent writer can
        // slip between a check and its write. Durability is awaited after the lock is released,
        // so concurrent requests share group commits.
        var results = ModifyResult(saveResults: [:], deleteResults: [:])
        // Reserved only for several items: this call is not specialized, and looking up the
        // dictionary's generic metadata cost a single-record commit more than it saved.
        if saving.count > 1 { results.saveResults.reserveCapacity(saving.count) }
        if deleting.count > 1 { results.deleteResults.reserveCapacity(deleting.count) }
        let committed = try state.withLock { state -> [CommittedZone] in
            var plans: [ZonePlan] = []
            var failures: [RecordID: RecordStoreError] = [:]
            for request in requests {
                let plan = try ZonePlanner(zone: state.zones[request.zoneID], zoneID: request.zoneID, policy: savePolicy, now: now, database: self)
                    .plan(saving: request.saving, deleting: request.deleting)
                failures.merge(plan.failures) { first, _ in first }
                plans.append(plan)
            }
            if atomically, !failures.isEmpty {
                var errors = failures
                for id in saving.map(\.recordID) + deleting where errors[id] == nil {
                    errors[id] = RecordStoreError.batchRequestFailed(id)
                }
                throw RecordStoreError.partialFailure(errors, atomic: true)
            }
            // The plans are changed in place (change tags set, then handed to the state): no
            // record is copied between planning and writing but into the results.
            var batches: [EncodedBatch?] = []
            for index in plans.indices {
                guard let zone = state.zones[plans[index].zoneID], !plans[index].isEmpty else {
                    batches.append(nil)
                    continue
                }
                let batch = try encode(&plans[index], partition: zone.partition, incarnation: zone.incarnation, buffers: &state.commitBuffers)
                guard batch.bytes.count <= log.options.maxBatchBytes else {
                    throw RecordStoreError(
                        .limitExceeded,
                        "The request's records in zone \(plans[index].zoneID) add up to \(batch.bytes.count) bytes, over the \(log.options.maxBatchBytes)-byte limit of one commit; split the request.")
                }
                batches.append(batch)
            }
            var committed: [CommittedZone] = []
            committed.reserveCapacity(plans.count)
            for index in plans.indices {
                let batch = batches[index]
                batches[index] = nil
                committed.append(try write(plans[index], batch: batch, results: &results, state: &state))
                // Written: its memory serves the next commit.
                if let batch { state.commitBuffers.recycle(batch) }
            }
            return committed
        }

        for zone in committed { try await zone.pending?.durable() }
        for zone in committed where zone.pending != nil { subscriptions.publish(zone.changes) }
        return results
    }

    /// From this many items on, a commit overlaps its fdatasync with applying itself to the state,
    /// and its views' fold with the writer's next commit: for a smaller one the thread hand-offs
    /// would cost more than they overlap (a single-record commit's state and views take a few
    /// microseconds).
    static let largeCommitItems = 64

    /// Saves one record with the default policy and returns it as stored.
    ///
    /// - Throws: the item's own error (`serverRecordChanged`, `zoneNotFound`, …), not `partialFailure`.
    public func save(_ record: Record, savePolicy: SavePolicy = .ifServerRecordUnchanged) async throws -> Record {
        do {
            let result = try await modifyRecords(saving: [record], deleting: [], savePolicy: savePolicy)
            guard let saved = result.saveResults[record.recordID] else {
                throw RecordStoreError(.internalError, "no result for \(record.recordID)")
            }
            return try saved.get()
        } catch let error as RecordStoreError where error.code == .partialFailure {
            throw error.partialErrors[record.recordID] ?? error
        }
    }

    /// Deletes one record (and, by cascade, the records that reference it with `.deleteSelf`).
    ///
    /// - Throws: `unknownItem` when it does not exist.
    public func delete(_ recordID: RecordID) async throws {
        do {
            let result = try await modifyRecords(saving: [], deleting: [recordID])
            try result.deleteResults[recordID]?.get()
        } catch let error as RecordStoreError where error.code == .partialFailure {
            throw error.partialErrors[recordID] ?? error
        }
    }

    /// Encodes a zone's plan as one batch, setting each save's change tag from the offset it will
    /// get (the caller holds the lock until the batch is written) and clearing its changed keys.
    private func encode(
        _ plan: inout ZonePlan, partition: any LogPartition, incarnation: Int64, buffers: inout CommitBuffers
    ) throws -> EncodedBatch {
        var batch = buffers.takeBuilder()
        defer { buffers.recycle(batch) }
        let firstOffset = partition.endOffset
        plan.firstOffset = firstOffset
        // One timestamp for the whole commit: it is one atomic event in time.
        let timestamp = RecordBatchBuilder.now()
        for index in plan.saves.indices {
            let changeTag = ChangeTag.make(incarnation: incarnation, offset: firstOffset + Int64(index))
            plan.saves[index].record.recordChangeTag = changeTag
            plan.saves[index].record.clearChangedKeys()
            buffers.value.removeAll(keepingCapacity: true)
            // The planner validated the record (a merged update is the server's valid copy with
            // the caller's validated keys); only the size is checked again, as encoded.
            try RecordCodec.encodeValidated(plan.saves[index].record, into: &buffers.value, bound: plan.saves[index].sizeBound)
            batch.append(
                key: plan.saves[index].record.recordID.recordName, value: buffers.value,
                headers: buffers.headers.saveHeaders(recordType: plan.saves[index].record.recordType, changeTag: changeTag), timestamp: timestamp)
        }
        for delete in plan.deletes {
            batch.append(key: delete.name, value: nil, headers: buffers.headers.deleteHeaders(recordType: delete.recordType), timestamp: timestamp)
        }
        return try batch.encode(
            compression: log.options.compression, reusing: buffers.takeBatchBytes(), twoThreadsFrom: log.options.twoThreadCompressionBytes)
    }

    /// Writes a zone's batch (not yet durable), applies it to the state and the views, and files
    /// each item's outcome in `results`.
    private func write(
        _ plan: borrowing ZonePlan, batch: EncodedBatch?, results: inout ModifyResult, state: inout State
    ) throws -> CommittedZone {
        var committed = CommittedZone()
        // Requests delete few records or many: a set keeps telling them apart linear.
        let requestedDeletes = plan.requestedDeletes.isEmpty ? [] : Set(plan.requestedDeletes)
        for (id, error) in plan.failures {
            if requestedDeletes.contains(id) { results.deleteResults[id] = .failure(error) } else { results.saveResults[id] = .failure(error) }
        }
        // The zone is taken out of the dictionary while it changes, so its tables change in place.
        guard let batch, var zone = state.zones.removeValue(forKey: plan.zoneID) else { return committed }
        defer { state.zones[plan.zoneID] = zone }
        let pending = try zone.partition.appendWithoutWaiting(batch)
        let large = plan.saves.count + plan.deletes.count >= Self.largeCommitItems
        // Written: a large commit's fdatasync runs while its records are applied below.
        if large { pending.startDurable() }
        // The views get the whole commit at once; a large commit's fold runs on each view's own
        // thread while this one applies it to the state and returns.
        if !state.views.isEmpty {
            var events: [ViewEvent] = []
            events.reserveCapacity(plan.saves.count + plan.deletes.count)
            for index in plan.saves.indices { events.append(.saved(plan.saves[index].record)) }
            for delete in plan.deletes {
                events.append(.deleted(RecordID(recordName: delete.name, zoneID: plan.zoneID), recordType: delete.recordType))
            }
            for view in state.views { view.fold(events, large) }
        }
        committed.changes.reserveCapacity(plan.saves.count + plan.deletes.count)
        for index in plan.saves.indices {
            let record = plan.saves[index].record
            zone.applySave(
                record, offset: plan.firstOffset + Int64(index), targets: plan.saves[index].targets, nameHash: plan.saves[index].nameHash)
            results.saveResults[record.recordID] = .success(record)
            committed.changes.append(.saved(record, created: plan.saves[index].isNew))
        }
        for delete in plan.deletes {
            zone.applyDelete(name: delete.name)
            let id = RecordID(recordName: delete.name, zoneID: plan.zoneID)
            if requestedDeletes.contains(id) { results.deleteResults[id] = .success(()) }
            committed.changes.append(.deleted(id, recordType: delete.recordType))
        }
        committed.pending = pending
        return committed
    }
}

/// What one zone's commit wrote and answers.
struct CommittedZone {
    var pending: PendingAppend?
    var changes: [RecordChange] = []
}
