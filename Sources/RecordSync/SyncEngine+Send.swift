import Foundation
import RecordStore

extension SyncEngine {
    /// Sends every pending local change to the remote, zone by zone, in batches within the
    /// remote's item limit, each with a client change token made from the batch's content (so a
    /// batch sent again after a lost answer, or after a crash, is recognised as a retry and
    /// applied once). A change is removed from the outbox only in the local commit that records
    /// its acknowledgement, and only if no newer local change was folded into it meanwhile.
    /// A save that meets a newer remote version is merged (``SyncConflict``) and sent again over
    /// it; one whose record (or parent) the remote deleted is deleted locally.
    ///
    /// - Throws: the remote's transport errors after retries, and the local store's errors.
    ///   Items the remote refuses for their own reasons stay pending and are reported in
    ///   ``SyncEvent/sentChanges(_:saved:deleted:failed:)``.
    public func sendChanges() async throws {
        try await exclusively { try await sendRound() }
    }

    private func sendRound() async throws {
        try await prepare()
        for zoneID in try await localZones() {
            guard try local.syncRead(in: zoneID, { try ZoneSyncState.read($0) }) != nil else { continue }
            try await send(zoneID)
        }
    }

    /// One pending change, as read for sending.
    struct Outgoing: Sendable {
        var change: PendingChange
        /// The change tag of its pending-change record when read: the acknowledgement removes the
        /// record only if it is still this version.
        var markerTag: String
        /// For a save: the record as sent.
        var record: Record?
    }

    /// Sends a zone's pending changes, each at most once per round (conflicts are merged and
    /// sent again a few times).
    private func send(_ zoneID: ZoneID) async throws {
        var attempted: Set<String> = []
        var limit = max(1, remote.maximumItemsPerRequest)
        while true {
            let batch = try collect(zoneID, limit: limit, excluding: attempted)
            guard !batch.isEmpty else { return }
            do {
                try await sendBatch(batch, in: zoneID)
            } catch let error as RecordStoreError where error.code == .limitExceeded && batch.count > 1 {
                // The request is too large for the remote (large records): send fewer at a time.
                limit = batch.count / 2
                continue
            }
            for item in batch { attempted.insert(item.change.recordName) }
        }
    }

    /// Up to `limit` pending changes of the zone not yet attempted, by record name; orphaned
    /// saves (the record was deleted by a sync write's cascade) are dropped on the way.
    private func collect(_ zoneID: ZoneID, limit: Int, excluding attempted: Set<String>) throws -> [Outgoing] {
        try local.syncRead(in: zoneID) { reader in
            var items: [Outgoing] = []
            for markerName in reader.names(ofType: SyncRecords.pendingType).sorted() {
                guard items.count < limit else { break }
                guard let marker = try reader.record(named: markerName), let change = PendingChange(marker),
                    !attempted.contains(change.recordName), let markerTag = reader.pendingChangeTag(for: change.recordName)
                else { continue }
                if change.isDelete {
                    items.append(Outgoing(change: change, markerTag: markerTag, record: nil))
                } else if let record = try reader.record(named: change.recordName) {
                    items.append(
                        Outgoing(
                            change: change, markerTag: markerTag,
                            record: record.outgoing(changeTag: record.syncChangeTag, changedKeys: change.changedKeys)))
                } else {
                    // Saved, then deleted by a remote deletion's cascade: there is nothing to send.
                    items.append(Outgoing(change: PendingChange(recordName: change.recordName, isDelete: true, changedKeys: []), markerTag: markerTag, record: nil))
                }
            }
            return items
        }
    }

    /// Sends one batch and records what the remote acknowledged; merges conflicts and sends them
    /// again (at most three times).
    private func sendBatch(_ batch: [Outgoing], in zoneID: ZoneID) async throws {
        var round = batch
        for _ in 0..<3 {
            let saving = round.compactMap(\.record)
            let deleting = round.filter(\.change.isDelete).map { RecordID(recordName: $0.change.recordName, zoneID: zoneID) }
            let token = Self.clientChangeToken(device: local.storeIdentity, zoneID: zoneID, batch: round)
            emit(.willSendChanges(zoneID, batch: token, count: round.count))
            let result = try await modifyRemote(saving: saving, deleting: deleting, token: token, zoneID: zoneID)
            SyncHook.reached(.remoteAnswered)
            var acknowledged: [Acknowledgement] = []
            var again: [Outgoing] = []
            var failed: [RecordID: RecordStoreError] = [:]
            for item in round {
                let id = RecordID(recordName: item.change.recordName, zoneID: zoneID)
                if item.change.isDelete {
                    switch result.deleteResults[id] {
                    case .success?: acknowledged.append(.deleted(item))
                    case .failure(let error)? where error.code == .unknownItem: acknowledged.append(.deleted(item))
                    case .failure(let error)?: failed[id] = error
                    case nil: failed[id] = RecordStoreError(.internalError, "The remote answered nothing for \(id).", recordID: id)
                    }
                    continue
                }
                switch result.saveResults[id] {
                case .success(let saved)?:
                    acknowledged.append(.saved(item, saved))
                case .failure(let error)? where error.code == .serverRecordChanged:
                    guard let server = error.serverRecord, let sent = item.record else {
                        failed[id] = error
                        continue
                    }
                    let merged = try await resolve(
                        SyncConflict(
                            serverRecord: server, localRecord: sent, ancestorRecord: error.ancestorRecord,
                            localChangedKeys: item.change.changedKeys))
                    emit(.conflictResolved(id))
                    let differing = Self.differingKeys(merged, server)
                    if differing.isEmpty && merged.recordType == server.recordType {
                        // The remote already holds the merge (our own earlier send, whose answer
                        // was lost): acknowledge without writing again.
                        acknowledged.append(.saved(item, server))
                    } else {
                        var resend = item
                        var outgoing = merged.outgoing(changeTag: server.recordChangeTag, changedKeys: differing)
                        // The merge holds both edits: it carries the later one's stamp.
                        outgoing.setSyncAuthor(Self.later(sent.syncAuthor, server.syncAuthor))
                        resend.record = outgoing
                        again.append(resend)
                    }
                case .failure(let error)? where error.code == .unknownItem || error.code == .referenceViolation:
                    // Deleted remotely (or its parent was): the delete wins.
                    acknowledged.append(.goneRemotely(item))
                case .failure(let error)?:
                    failed[id] = error
                case nil:
                    failed[id] = RecordStoreError(.internalError, "The remote answered nothing for \(id).", recordID: id)
                }
            }
            try await acknowledge(acknowledged, in: zoneID)
            SyncHook.reached(.acknowledged)
            emit(
                .sentChanges(
                    zoneID, batch: token, saved: acknowledged.compactMap(\.savedID).map { RecordID(recordName: $0, zoneID: zoneID) },
                    deleted: acknowledged.compactMap(\.deletedID).map { RecordID(recordName: $0, zoneID: zoneID) }, failed: failed))
            guard !again.isEmpty else { return }
            round = again
        }
    }

    /// Calls the remote's modify, creating the zone there first when it does not exist.
    private func modifyRemote(saving: [Record], deleting: [RecordID], token: Data, zoneID: ZoneID) async throws -> ModifyResult {
        let result = try await remote.modifyRecords(
            saving: saving, deleting: deleting, savePolicy: .ifServerRecordUnchanged, atomically: false, clientChangeTokenData: token)
        let missingZone =
            result.saveResults.values.contains { (try? $0.get()) == nil && Self.code(of: $0) == .zoneNotFound }
            || result.deleteResults.values.contains { Self.code(of: $0) == .zoneNotFound }
        guard missingZone else { return result }
        try await remote.save(RecordZone(zoneID: zoneID))
        return try await remote.modifyRecords(
            saving: saving, deleting: deleting, savePolicy: .ifServerRecordUnchanged, atomically: false, clientChangeTokenData: token)
    }

    /// The later of two edit stamps (either may be missing).
    static func later(_ one: SyncAuthor?, _ other: SyncAuthor?) -> SyncAuthor? {
        guard let one, let other else { return one ?? other }
        return one.isLater(than: other) ? one : other
    }

    private static func code<Success>(of result: Result<Success, RecordStoreError>) -> RecordStoreError.Code? {
        if case .failure(let error) = result { return error.code }
        return nil
    }

    private func resolve(_ conflict: SyncConflict) async throws -> Record {
        if let resolver = configuration.conflictResolver { return try await resolver(conflict) }
        return RecordMerge.threeWay(conflict)
    }

    /// The keys whose values differ between two records (a key only one has included).
    static func differingKeys(_ lhs: Record, _ rhs: Record) -> [String] {
        Set(lhs.allKeys()).union(rhs.allKeys()).filter { lhs[$0] != rhs[$0] }.sorted()
    }

    /// What the remote said of one pending change.
    enum Acknowledgement: Sendable {
        /// Saved: the remote's record as stored.
        case saved(Outgoing, Record)
        case deleted(Outgoing)
        /// The remote no longer has the record (or its parent): delete it here too.
        case goneRemotely(Outgoing)

        var item: Outgoing {
            switch self {
            case .saved(let item, _), .deleted(let item), .goneRemotely(let item): item
            }
        }
        var savedID: String? { if case .saved(let item, _) = self { item.change.recordName } else { nil } }
        var deletedID: String? { if case .saved = self { nil } else { item.change.recordName } }
    }

    /// Records the acknowledgements in one local commit: each acknowledged change's record is
    /// removed from the outbox and the local record takes the remote's version (content and
    /// sync change tag) — unless a newer local change was folded in since it was read, which
    /// stays pending over the new remote version.
    private func acknowledge(_ acknowledgements: [Acknowledgement], in zoneID: ZoneID) async throws {
        guard !acknowledgements.isEmpty else { return }
        do {
            try await acknowledgeInOneCommit(acknowledgements, in: zoneID)
        } catch let error as RecordStoreError where error.code == .limitExceeded && acknowledgements.count > 1 {
            // Too large for one commit (large records): in halves; each is complete on its own.
            let half = acknowledgements.count / 2
            try await acknowledge(Array(acknowledgements[..<half]), in: zoneID)
            SyncHook.reached(.acknowledgedInPart)
            try await acknowledge(Array(acknowledgements[half...]), in: zoneID)
        }
    }

    private func acknowledgeInOneCommit(_ acknowledgements: [Acknowledgement], in zoneID: ZoneID) async throws {
        var removedHere: [RecordID] = []
        _ = try await local.syncWrite(in: zoneID) { reader -> (saving: [Record], deleting: [RecordID]) in
            removedHere = []
            var saving: [Record] = []
            var deleting: [RecordID] = []
            for acknowledgement in acknowledgements {
                let name = acknowledgement.item.change.recordName
                let id = RecordID(recordName: name, zoneID: zoneID)
                let marker = RecordID(recordName: SyncRecords.pendingName(for: name), zoneID: zoneID)
                let unchanged = reader.pendingChangeTag(for: name) == acknowledgement.item.markerTag
                let current = try reader.record(named: name)
                switch acknowledgement {
                case .saved(_, let remote):
                    if unchanged {
                        saving.append(Record.replacing(current, with: remote))
                        deleting.append(marker)
                    } else if let current {
                        saving.append(current.inStep(with: remote.recordChangeTag))
                    }
                case .deleted:
                    if unchanged { deleting.append(marker) }
                case .goneRemotely:
                    guard unchanged else { continue }
                    deleting.append(marker)
                    if current != nil {
                        deleting.append(id)
                        removedHere.append(id)
                    }
                }
            }
            return (saving, deleting)
        }
        for id in removedHere { emit(.remoteDeletionWon(id)) }
        emit(.stateSaved(zoneID))
    }

    /// The client change token of a batch: the same batch (the same changes, each at the same
    /// version) gives the same token, so the remote recognises it as a retry; another batch
    /// gives another.
    static func clientChangeToken(device: [UInt8], zoneID: ZoneID, batch: [Outgoing]) -> Data {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                second = second.rotatedLeft(by: 7)
            }
            first = (first ^ 0xFF) &* 0x0000_0100_0000_01B3
        }
        mix(device)
        mix(zoneID.zoneName.utf8)
        for item in batch {
            mix(item.change.recordName.utf8)
            mix(item.markerTag.utf8)
            if let record = item.record { mix((record.recordChangeTag ?? "").utf8) }
        }
        var bytes = Array("RLSY".utf8)
        for value in [first, second] { withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) } }
        return Data(bytes)
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(by count: Int) -> UInt64 { (self << UInt64(count)) | (self >> UInt64(64 - count)) }
}
