import Testing
@testable import RecordLog

@Suite struct GroupCommitTests {
    @Test("appends written before a sync starts all become durable through that one sync")
    func oneSyncForWaitingAppends() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store)  // .fsync durability
            let notes = try log.createPartition(named: "Notes")
            var pending: [PendingAppend] = []
            for index in 0..<16 {
                var batch = RecordBatchBuilder()
                batch.append(key: "k\(index)", value: [UInt8(index)])
                pending.append(try notes.appendWithoutWaiting(batch.encode()))
            }
            let before = log.committer.syncCount
            try await withThrowingTaskGroup(of: Void.self) { group in
                for append in pending { group.addTask { try await append.durable() } }
                try await group.waitForAll()
            }
            #expect(log.committer.syncCount - before == 1, "16 waiting appends, one fdatasync")
            let expected: [Range<Int64>] = (0..<16).map { (index: Int64) in index..<(index + 1) }
            #expect(pending.map(\.offsets) == expected)
            try log.close()
        }
    }

    @Test("startDurable syncs a written batch in the background, before anyone waits; the wait then costs no second sync")
    func startDurableSyncsEarly() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store)
            let notes = try log.createPartition(named: "Notes")
            var batch = RecordBatchBuilder()
            batch.append(key: "k", value: [1])
            let before = log.committer.syncCount
            let pending = try notes.appendWithoutWaiting(batch.encode())
            #expect(!log.committer.isDurable(pending.sequence))
            pending.startDurable()
            log.committer.waitForQueuedSyncs()
            #expect(log.committer.isDurable(pending.sequence), "synced with no one waiting")
            try await pending.durable()
            #expect(log.committer.syncCount - before == 1)
            // Nothing written since: a second call starts nothing.
            pending.startDurable()
            log.committer.waitForQueuedSyncs()
            #expect(log.committer.syncCount - before == 1)
            try log.close()
        }
    }

    @Test("an append that returned is durable: the group sync covered it")
    func durableAfterReturn() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store)
            let notes = try log.createPartition(named: "Notes")
            var batch = RecordBatchBuilder()
            batch.append(key: "k", value: [1])
            _ = try await notes.append(batch)
            #expect(log.committer.syncCount >= 1)
            try log.close()
        }
    }
}
