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
    /// writers share one fsync. A large commit (64 items or more) starts its fsync as soon as it
    /// is written, while it is applied to the state, and is folded into the views on their own
    /// queues (a view read after the call returns suspends until the fold is done). If
    /// that fsync fails the log refuses all further work, and reopening the store shows exactly
    /// what reached the disk.
    ///
    /// **Idempotent retries**: `clientChangeTokenData` (as CloudKit's operation's) is stored with
    /// each zone's commit, and zone-change fetches report each zone's latest
    /// (``ZoneChanges/clientChangeTokenData``). A request that repeats the client token of the
    /// latest commit of one of its zones is taken for a retry of the request that wrote it (whose
    /// answer the client did not get): it writes nothing and returns that commit's results — each
    /// saved record as it was saved, each delete done. An item that commit did not write gets the
    /// error planning it now gives. Use a new token for every new request:
    ///
    /// ```swift
    /// let token = Data(UUID().uuidString.utf8)
    /// let result = try await database.modifyRecords(saving: edits, deleting: [], clientChangeTokenData: token)
    /// // …the connection dropped before the answer came: send the same request again, same token.
    /// ```
    ///
    /// - Throws: `limitExceeded` for more than `maximumItemsPerRequest` items (400 unless the
    ///   database was opened with another limit), `invalidArguments` for an ID named twice or a
    ///   client change token that is empty or over 1,024 bytes.
    public func modifyRecords(
        saving: [Record], deleting: [RecordID], savePolicy: SavePolicy = .ifServerRecordUnchanged, atomically: Bool = true,
        clientChangeTokenData: Data? = nil
    ) async throws -> ModifyResult {
        try checkOpen()
        let count = saving.count + deleting.count
        guard count <= maximumItemsPerRequest else {
            throw RecordStoreError.tooManyItems(count, limit: maximumItemsPerRequest)
        }
        let clientToken = clientChangeTokenData.map { [UInt8]($0) }
        if let clientToken, clientToken.isEmpty || clientToken.count > ClientChangeTokenMark.maximumBytes {
            throw RecordStoreError(
                .invalidArguments,
                "The client change token has \(clientToken.count) bytes; it must have 1 to \(ClientChangeTokenMark.maximumBytes). Use nil for none.")
        }
        let requests = try ZoneRequest.split(saving: saving, deleting: deleting)
        let now = MillisecondDate.date(milliseconds: MillisecondDate.milliseconds(of: Date()) ?? 0)

        // One lock hold plans every zone, checks the request, encodes and writes: an atomic
        // request writes nothing unless every zone's part is clean, and no concurrent writer can
        // slip between a check and its write. Durability is awaited after the lock is released,
        // so concurrent requests share group commits. The steps are in CommitPipeline.swift.
        var results = ModifyResult(saveResults: [:], deleteResults: [:])
        // Reserved only for several items: this call is not specialized, and looking up the
        // dictionary's generic metadata cost a single-record commit more than it saved.
        if saving.count > 1 { results.saveResults.reserveCapacity(saving.count) }
        if deleting.count > 1 { results.deleteResults.reserveCapacity(deleting.count) }
        var retry: ClientChangeTokenRetry?
        let commits = try state.withLock { state -> [ZoneCommit] in
            if let clientToken {
                retry = try ClientChangeTokenRetry.answer(requests, token: clientToken, zones: state.zones) { request in
                    try plan([request], policy: savePolicy, now: now, zones: state.zones)[0].plan
                }
                if retry != nil { return [] }
            }
            var commits = try plan(requests, policy: savePolicy, now: now, zones: state.zones, clientToken: clientToken)
            if atomically { try Self.refuseIfAnyFailed(commits, saving: saving, deleting: deleting) }
            for index in commits.indices { try encode(&commits[index], state: &state) }
            for index in commits.indices { try write(&commits[index], results: &results, state: &state) }
            return commits
        }
        if let retry {
            for pending in retry.pending { try await pending.durable() }
            return retry.results
        }
        try await publish(commits)
        return results
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
}
