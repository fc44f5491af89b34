import Foundation
import RecordLog

/// A modify request that repeats the client change token of a zone's latest commit is a retry of
/// the request that wrote it (the client never saw its answer): it is answered with that commit's
/// results, read back from the log, and writes nothing.
struct ClientChangeTokenRetry {
    /// The answer to the retried request.
    var results = ModifyResult(saveResults: [:], deleteResults: [:])
    /// The durability of the commits it repeats, when this process wrote them: the retry returns
    /// once they are durable, as the request it repeats does.
    var pending: [PendingAppend] = []

    /// The answer when `requests` repeat `token`, else nil (the request is a new one).
    ///
    /// The request is a retry when `token` is the client token of the latest commit of one of
    /// its zones. Each zone whose latest token is `token` answers from the commit that carried
    /// it: its saves as written, its deletes as done. An item that commit did not write (it
    /// failed in a request that was not atomic, or its zone had nothing written) gets the error
    /// planning it now gives, or an error saying it was not written.
    ///
    /// - Throws: what reading the log throws.
    static func answer(
        _ requests: [ZoneRequest], token: [UInt8], zones: [ZoneID: ZoneState], planner: (ZoneRequest) throws -> ZonePlan
    ) throws -> ClientChangeTokenRetry? {
        let repeats = requests.contains { request in
            guard let zone = zones[request.zoneID], let mark = zone.clientToken else { return false }
            return mark.data == token && mark.offset == zone.partition.endOffset - 1
        }
        guard repeats else { return nil }
        var retry = ClientChangeTokenRetry()
        for request in requests {
            var written = WrittenCommit()
            if let zone = zones[request.zoneID], let mark = zone.clientToken, mark.data == token {
                written = try WrittenCommit(zone, holding: mark.offset)
                if let pending = mark.pending { retry.pending.append(pending) }
            }
            var missing = ZoneRequest(zoneID: request.zoneID)
            for record in request.saving {
                if let saved = written.saves[record.recordID.recordName] {
                    retry.results.saveResults[record.recordID] = .success(saved)
                } else {
                    missing.saving.append(record)
                }
            }
            for id in request.deleting {
                if written.deletes.contains(id.recordName) {
                    retry.results.deleteResults[id] = .success(())
                } else {
                    missing.deleting.append(id)
                }
            }
            guard !missing.saving.isEmpty || !missing.deleting.isEmpty else { continue }
            let failures = try planner(missing).failures
            for record in missing.saving {
                retry.results.saveResults[record.recordID] = .failure(failures[record.recordID] ?? notWritten(record.recordID))
            }
            for id in missing.deleting {
                retry.results.deleteResults[id] = .failure(failures[id] ?? notWritten(id))
            }
        }
        return retry
    }

    /// The error of an item that the request a retry repeats did not write, and that would not
    /// fail now.
    private static func notWritten(_ id: RecordID) -> RecordStoreError {
        RecordStoreError(
            .invalidArguments,
            "Record \(id) was not written by the request this one repeats (it has the same clientChangeTokenData as the zone's "
                + "latest commit), and a retry writes nothing. Send it again in a request with a new client change token.",
            recordID: id)
    }

    /// What one commit wrote: its saves as records, and the names it deleted.
    private struct WrittenCommit {
        var saves: [String: Record] = [:]
        var deletes: Set<String> = []

        init() {}

        /// The commit whose last event is at `offset` in `zone`'s log: the batch holding it, or,
        /// in a batch a compaction merged of several commits, that batch's events up to `offset`
        /// stamped with its timestamp (FORMAT.md §13, rule 3).
        init(_ zone: ZoneState, holding offset: Int64) throws {
            guard let batch = try zone.partition.batches(from: offset, maxBytes: 1).first else { return }
            let records = try batch.records()
            guard let last = records.first(where: { $0.offset == offset }) else { return }
            for record in records where record.offset <= offset && record.timestamp == last.timestamp {
                let event = StoredEvent(record)
                guard let name = event.name else { continue }
                switch event.kind {
                case .save?:
                    if let saved = try event.savedRecord(zone: zone.zoneID.zoneName) { saves[name] = saved }
                case .delete?:
                    deletes.insert(name)
                default:
                    continue
                }
            }
        }
    }
}
