import Foundation
import RecordLog

extension Database {
    /// The most items one `modifyRecords` call may hold, as CloudKit's limit.
    public static let maximumItemsPerRequest = 400

    /// Saves and deletes records, each zone's part as one atomic, durable commit.
    ///
    /// With `atomically` (the default), if any item fails nothing is written and the call throws
    /// `partialFailure`, whose `partialErrors` hold each failed item's error and
    /// `batchRequestFailed` for the others. Without it, each item succeeds or fails alone.
    /// Deleting a record deletes, in the same commit, every record that references it with
    /// `.deleteSelf` (transitively).
    ///
    /// - Throws: `limitExceeded` for more than 400 items, `invalidArguments` for an ID named twice.
    public func modifyRecords(
        saving: [Record], deleting: [RecordID], savePolicy: SavePolicy = .ifServerRecordUnchanged, atomically: Bool = true
    ) async throws -> ModifyResult {
        try checkOpen()
        let count = saving.count + deleting.count
        guard count <= Self.maximumItemsPerRequest else {
            throw RecordStoreError.tooManyItems(count, limit: Self.maximumItemsPerRequest)
        }
        var seen = Set<RecordID>()
        for id in saving.map(\.recordID) + deleting where !seen.insert(id).inserted {
            throw RecordStoreError(.invalidArguments, "Record \(id) appears twice in one request; save or delete it once.", recordID: id)
        }
        let zoneIDs = Set(saving.map(\.recordID.zoneID)).union(deleting.map(\.zoneID)).sorted { $0.zoneName < $1.zoneName }
        let now = Date()

        // Plan every zone first: an atomic request writes nothing unless every zone's plan is clean.
        var plans: [ZonePlan] = []
        var failures: [RecordID: RecordStoreError] = [:]
        for zoneID in zoneIDs {
            let saves = saving.filter { $0.recordID.zoneID == zoneID }
            let deletes = deleting.filter { $0.zoneID == zoneID }
            let plan = try state.withLock { state in
                try ZonePlanner(zone: state.zones[zoneID], zoneID: zoneID, policy: savePolicy, now: now, database: self)
                    .plan(saving: saves, deleting: deletes)
            }
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

        // Commit each zone's plan; the plan is checked again under the lock, against the state
        // as it is now, so a concurrent writer cannot slip between the check and the write.
        var saveResults: [RecordID: Result<Record, RecordStoreError>] = [:]
        var deleteResults: [RecordID: Result<Void, RecordStoreError>] = [:]
        for (id, error) in failures {
            if saving.contains(where: { $0.recordID == id }) { saveResults[id] = .failure(error) } else { deleteResults[id] = .failure(error) }
        }
        for plan in plans where !plan.isEmpty {
            let committed = try commit(plan, saving: saving, deleting: deleting, policy: savePolicy, now: now, atomically: atomically)
            try await committed.pending?.durable()
            for (id, result) in committed.saveResults { saveResults[id] = result }
            for (id, result) in committed.deleteResults { deleteResults[id] = result }
            if committed.pending != nil { subscriptions.publish(committed.changes) }
        }
        return ModifyResult(saveResults: saveResults, deleteResults: deleteResults)
    }

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

    /// Plans against the current state and writes the zone's batch, under the lock.
    private func commit(
        _ plan: ZonePlan, saving: [Record], deleting: [RecordID], policy: SavePolicy, now: Date, atomically: Bool
    ) throws -> CommittedZone {
        try state.withLock { state in
            let zoneID = plan.zoneID
            let fresh = try ZonePlanner(zone: state.zones[zoneID], zoneID: zoneID, policy: policy, now: now, database: self)
                .plan(saving: plan.saves.map(\.original), deleting: plan.requestedDeletes)
            guard var zone = state.zones[zoneID] else { throw RecordStoreError.zoneNotFound(zoneID) }
            if atomically, !fresh.failures.isEmpty {
                throw RecordStoreError.partialFailure(fresh.failures, atomic: true)
            }
            var committed = CommittedZone()
            for (id, error) in fresh.failures {
                if fresh.requestedDeletes.contains(id) { committed.deleteResults[id] = .failure(error) } else { committed.saveResults[id] = .failure(error) }
            }
            guard !fresh.isEmpty else { return committed }
            let first = zone.partition.endOffset
            var batch = RecordBatchBuilder(reservingCapacity: 256 * (fresh.saves.count + fresh.deletes.count))
            var value: [UInt8] = []
            var savedRecords: [(name: String, record: Record, offset: Int64)] = []
            var offset = first
            for save in fresh.saves {
                var record = save.record
                record.recordChangeTag = ChangeTag.make(offset)
                value.removeAll(keepingCapacity: true)
                try RecordCodec.encode(record, into: &value)
                batch.append(
                    key: record.recordID.recordName, value: value,
                    headers: StoredEvent.headers(.save, recordType: record.recordType, changeTag: record.recordChangeTag))
                record.clearChangedKeys()
                savedRecords.append((record.recordID.recordName, record, offset))
                offset += 1
            }
            for delete in fresh.deletes {
                batch.append(key: delete.name, value: nil, headers: StoredEvent.headers(.delete, recordType: delete.recordType))
            }
            let pending = try zone.partition.appendWithoutWaiting(batch.encode())
            guard pending.offsets.lowerBound == first else {
                throw RecordStoreError(.internalError, "the zone's log moved while it was locked")
            }
            for saved in savedRecords {
                zone.applySave(name: saved.name, entry: RecordEntry(record: saved.record, offset: saved.offset))
                committed.saveResults[saved.record.recordID] = .success(saved.record)
                committed.changes.append(.saved(saved.record, created: fresh.saves.first { $0.record.recordID == saved.record.recordID }?.isNew ?? false))
            }
            for delete in fresh.deletes {
                zone.applyDelete(name: delete.name)
                let id = RecordID(recordName: delete.name, zoneID: zoneID)
                if fresh.requestedDeletes.contains(id) { committed.deleteResults[id] = .success(()) }
                committed.changes.append(.deleted(id, recordType: delete.recordType))
            }
            state.zones[zoneID] = zone
            for change in committed.changes {
                let event: ViewEvent
                switch change {
                case .saved(let record, _): event = .saved(record)
                case .deleted(let id, let recordType): event = .deleted(id, recordType: recordType)
                }
                for view in state.views { view.apply(event) }
            }
            committed.pending = pending
            return committed
        }
    }
}

/// What one zone's commit wrote and answers.
struct CommittedZone {
    var pending: PendingAppend?
    var saveResults: [RecordID: Result<Record, RecordStoreError>] = [:]
    var deleteResults: [RecordID: Result<Void, RecordStoreError>] = [:]
    var changes: [RecordChange] = []
}

/// Change tags: the offset of the save event, base 36. Unique per record version within a zone.
enum ChangeTag {
    static func make(_ offset: Int64) -> String { String(offset, radix: 36) }
}
