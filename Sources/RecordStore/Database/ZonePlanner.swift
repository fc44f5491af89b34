import Foundation
import RecordLog
import StorageKit

/// One zone's part of a modify request, checked against the zone's state: what to write, and
/// which items fail and why.
struct ZonePlan: Sendable {
    struct Save: Sendable {
        /// The record to write (policy applied, dates set; the change tag is set at write time).
        var record: Record
        var isNew: Bool
        /// The record's `.deleteSelf` targets.
        var targets: CascadeTargets
        /// The record name's hash in the zone's key index: looked up when planning, filed when writing.
        var nameHash: UInt32
        /// An upper bound of the record's encoded size with any change tag the store gives it.
        var sizeBound: Int
        /// The `previous` header's offset (FORMAT.md §10.1): the live version's, the latest
        /// delete's, `StoredEvent.noPreviousEvent`; nil when the zone cannot tell (no header).
        var previous: Int64?
    }

    struct Delete: Sendable {
        var name: String
        var recordType: String
        /// The offset of the record's latest save: the delete's `previous`.
        var previous: Int64
    }

    let zoneID: ZoneID
    var saves: [Save] = []
    /// Requested deletes and their cascade.
    var deletes: [Delete] = []
    var requestedDeletes: [RecordID] = []
    var failures: [RecordID: RecordStoreError] = [:]
    /// The offset the first save gets, set when the plan is encoded.
    var firstOffset: Int64 = 0

    var isEmpty: Bool { saves.isEmpty && deletes.isEmpty }

    /// What the plan changes, once written, in log order: for subscriptions, built only when
    /// one asks (``SubscriptionHub/publish(in:_:)``).
    var changes: [RecordChange] {
        saves.map { RecordChange.saved($0.record, created: $0.isNew) }
            + deletes.map { .deleted(RecordID(recordName: $0.name, zoneID: zoneID), recordType: $0.recordType) }
    }
}

/// Checks a zone's saves and deletes against the zone's live records.
struct ZonePlanner {
    let zone: ZoneState?
    let zoneID: ZoneID
    let policy: SavePolicy
    let now: Date
    /// Where the two-thread planning threshold comes from.
    let tuning: CommitTuning
    /// An app's request or a sync write (``WriteMode``).
    var mode: WriteMode = .app
    /// For an app's request to a synced zone: the stamp of who edits, and when (``SyncAuthor``).
    var author: SyncAuthor?

    func plan(saving: [Record], deleting: [RecordID]) throws -> ZonePlan {
        var plan = ZonePlan(zoneID: zoneID)
        plan.requestedDeletes = deleting
        guard let zone else {
            for record in saving {
                do { try record.validate(allowingSystemName: mode == .sync) } catch {
                    plan.failures[record.recordID] = error
                    continue
                }
                plan.failures[record.recordID] = .zoneNotFound(zoneID)
            }
            for id in deleting { plan.failures[id] = .zoneNotFound(zoneID) }
            return plan
        }
        // Records are planned independently of each other (what they mean to each other is
        // checked below): a large request plans its second half on a second thread.
        if saving.count >= tuning.twoThreadPlanningItems {
            let half = saving.count / 2
            let (saves, failures) = try SecondThread.run({ [self] in
                var saves: [ZonePlan.Save] = [], failures: [RecordID: RecordStoreError] = [:]
                try planSaves(saving[half...], zone: zone, into: &saves, failures: &failures)
                return (saves, failures)
            }, while: {
                try planSaves(saving[..<half], zone: zone, into: &plan.saves, failures: &plan.failures)
            })
            plan.saves += saves
            plan.failures.merge(failures) { first, _ in first }
        } else {
            try planSaves(saving[...], zone: zone, into: &plan.saves, failures: &plan.failures)
        }
        var deleted = Set<String>()
        for id in deleting {
            if mode == .app, SyncRecords.isSystemName(id.recordName) {
                plan.failures[id] = RecordStoreError(
                    .invalidArguments, "Record \(id) is one of the store's system records (its name starts with an underscore); apps cannot delete it.",
                    recordID: id)
            } else if zone.records[id.recordName] == nil { plan.failures[id] = .unknownItem(id) } else { deleted.insert(id.recordName) }
        }
        // References are checked until nothing more fails: a save can fail because a record it
        // points to failed to save.
        while true {
            // The names saved in this request: built only when a delete or a missing target needs them.
            var built: Set<String>?
            func savedNames() -> Set<String> {
                let names = built ?? Set(plan.saves.map(\.record.recordID.recordName))
                built = names
                return names
            }
            let cascade = deleted.isEmpty ? [] : cascadeOf(deleted, zone: zone, saved: savedNames())
            // Saves in one request mostly point to the same few records (a folder): the last
            // target found live is not looked up again. The saves are only read here, and removed
            // below only when one fails: removing while a copy of the array was alive copied
            // every planned record.
            var lastLiveTarget: String?
            var failed: [Int] = []
            // A sync write applies the remote's records as they come: a target may come in a
            // later page.
            for index in plan.saves.indices where mode == .app {
                for target in plan.saves[index].targets {
                    let isLive = target == lastLiveTarget || zone.records[target] != nil
                    if isLive { lastLiveTarget = target }
                    let exists = (isLive || savedNames().contains(target)) && !cascade.contains(target)
                    if !exists {
                        let id = plan.saves[index].record.recordID
                        plan.failures[id] = .referenceViolation(from: id, to: RecordID(recordName: target, zoneID: zoneID))
                        failed.append(index)
                        break
                    }
                }
            }
            for index in failed.reversed() { plan.saves.remove(at: index) }
            if failed.isEmpty {
                plan.deletes = cascade.sorted().compactMap { name in
                    zone.records[name].map { ZonePlan.Delete(name: name, recordType: zone.records.recordType(of: $0), previous: $0.offset) }
                }
                return plan
            }
        }
    }

    /// Plans `saving`, in order, appending each save planned to `saves` or filing its error.
    private func planSaves(
        _ saving: ArraySlice<Record>, zone: ZoneState, into saves: inout [ZonePlan.Save], failures: inout [RecordID: RecordStoreError]
    ) throws {
        func plan(_ record: Record, nameHash: UInt32) throws {
            do { saves.append(try planSave(record, nameHash: nameHash, zone: zone)) } catch let error as RecordStoreError {
                failures[record.recordID] = error
            }
        }
        guard saving.count > 1 else {
            if let record = saving.first { try plan(record, nameHash: zone.records.hash(record.recordID.recordName)) }
            return
        }
        // Each name is hashed once, and the key index's buckets of them all are prefetched
        // before the first lookup: in an index of a million names each lookup misses the cache,
        // and a thousand misses one after another were a tenth of a large commit.
        let nameHashes = saving.map { zone.records.hash($0.recordID.recordName) }
        for hash in nameHashes { zone.records.prefetch(hash: hash) }
        saves.reserveCapacity(saves.count + saving.count)
        // By index: iterating `zip(saving, nameHashes)` copied every record out of the request.
        for (index, nameHash) in zip(saving.indices, nameHashes) { try plan(saving[index], nameHash: nameHash) }
    }

    private func planSave(_ record: Record, nameHash: UInt32, zone: ZoneState) throws -> ZonePlan.Save {
        try record.validate(allowingSystemName: mode == .sync)
        let name = record.recordID.recordName
        guard let existing = zone.records[name, hash: nameHash] else {
            if policy == .ifServerRecordUnchanged, record.recordChangeTag != nil {
                throw RecordStoreError(
                    .unknownItem,
                    "Record \(record.recordID) was deleted on the server since you fetched it. Save a new record without a change tag to recreate it.",
                    recordID: record.recordID)
            }
            var new = record
            new.creationDate = now
            new.modificationDate = now
            // Only a sync write says which remote version a record is in step with.
            if mode == .app {
                new.syncChangeTag = nil
                if !record.syncAuthorIsSet { new.setSyncAuthor(nil) }
            }
            new.takeAuthor(from: record, stamp: author)
            let sizeBound = try checkSize(new)
            return ZonePlan.Save(
                record: new, isNew: true, targets: new.cascadeTargets(), nameHash: nameHash, sizeBound: sizeBound,
                previous: zone.deleted.previousOfRecreated(name))
        }
        // Every policy writes onto the server's copy, as CloudKit does: `.changedKeys` and the
        // default send the keys edited locally, `.allKeys` every key the record has as well, and
        // keys only the server has stay — a record fetched with some desiredKeys, or before
        // another client added a key, never erases the others. A key is removed only by setting
        // it to nil (which marks it changed).
        let server = try zone.record(named: name, at: existing)
        // The tag of the version in the log (the entry keeps none): `<incarnation>-<offset>`.
        if policy == .ifServerRecordUnchanged, record.recordChangeTag != (server.recordChangeTag ?? "") {
            throw RecordStoreError.serverRecordChanged(
                record.recordID, serverRecord: server, clientRecord: record,
                ancestor: try zone.ancestor(of: name, changeTag: record.recordChangeTag))
        }
        // Only `.allKeys`, which sends the whole record, may change its type.
        var result = server
        if server.recordType != record.recordType {
            guard policy == .allKeys else {
                throw RecordStoreError(
                    .invalidArguments,
                    "Record \(record.recordID) is a \(server.recordType) on the server, not a \(record.recordType); save it with its own "
                        + "type, or with the .allKeys policy to change its type.",
                    recordID: record.recordID)
            }
            result = Record(
                recordType: record.recordType, recordID: server.recordID, sortedFields: server.fields, creationDate: server.creationDate,
                modificationDate: server.modificationDate, recordChangeTag: server.recordChangeTag, syncChangeTag: server.syncChangeTag,
                syncAuthor: server.syncAuthor)
        }
        for key in record.changedKeys() { result[key] = record[key] }
        if policy == .allKeys {
            for key in record.allKeys() { result[key] = record[key] }
        }
        result.creationDate = existing.creationDate ?? now
        result.modificationDate = now
        if mode == .sync { result.syncChangeTag = record.syncChangeTag }
        result.takeAuthor(from: record, stamp: author)
        let sizeBound = try checkSize(result)
        return ZonePlan.Save(
            record: result, isNew: false, targets: result.cascadeTargets(), nameHash: nameHash, sizeBound: sizeBound, previous: existing.offset)
    }

    /// Fails when the record, with the longest change tag it could get, encodes to over 1 MB;
    /// returns an upper bound of its encoded size, which the encoder writes within.
    /// Records far below the limit by that cheap bound skip the trial encoding.
    private func checkSize(_ record: Record) throws -> Int {
        let bound = Self.encodedSizeBound(record)
        if bound <= RecordLimits.maximumEncodedRecordSize { return bound }
        var sized = record
        sized.recordChangeTag = ChangeTag.longest
        var scratch: [UInt8] = []
        try RecordCodec.encode(sized, into: &scratch)
        return bound
    }

    /// An upper bound of the record's encoded size (FORMAT.md §9): every length, count and integer
    /// is counted at a varint's ten bytes, every tag and flag at a byte more than it takes; the
    /// change tag at the longest the store makes, or the record's own if longer.
    static func encodedSizeBound(_ record: Record) -> Int {
        func bound(_ value: FieldValue) -> Int {
            switch value {
            case .string(let text): return 12 + text.utf8.count
            case .bytes(let bytes): return 12 + bytes.count
            case .int64, .date, .double, .bool: return 12
            case .location: return 20
            case .reference(let reference): return 14 + reference.recordID.recordName.utf8.count
            case .list(let values): return 12 + values.reduce(0) { $0 + bound($1) }
            }
        }
        var total = 64 + record.recordType.utf8.count + max(ChangeTag.longest.utf8.count, record.recordChangeTag?.utf8.count ?? 0)
            + (record.syncChangeTag?.utf8.count ?? 0) + (record.syncAuthor.map { 12 + $0.device.count } ?? 0)
        // By index: `for field in record.fields` copied every field out of the array (retains
        // and releases of its key and value).
        for index in record.fields.indices {
            total += 12 + record.fields[index].key.utf8.count + bound(record.fields[index].value)
        }
        return total
    }

    /// The records deleted by deleting `names`: the names and, transitively, every record that
    /// references one of them with `.deleteSelf` — except records saved in this request, whose
    /// new version is checked on its own.
    private func cascadeOf(_ names: Set<String>, zone: ZoneState, saved: Set<String>) -> Set<String> {
        var result = names
        var queue = Array(names)
        while let target = queue.popLast() {
            for referrer in zone.records.referrers(of: target) where !saved.contains(referrer) && !result.contains(referrer) {
                result.insert(referrer)
                queue.append(referrer)
            }
        }
        return result
    }
}

