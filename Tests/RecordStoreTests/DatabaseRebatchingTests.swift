import Foundation
import RecordLog
@testable import RecordStore
import Testing
import TestSupport

/// A zone of small commits — one note a request, as a server writes them — is re-batched by
/// compaction (FORMAT.md §13, rule 3): fewer, compressed batches, and nothing a client holds
/// changes meaning.
@Suite struct DatabaseRebatchingTests {
    static func note(_ index: Int) -> Record {
        let words = ["milk", "bread", "call", "mum", "about", "the", "garden", "meeting", "notes", "tomorrow"]
        var random = SeededGenerator(seed: UInt64(index) &+ 3)
        return makeRecord("note-\(index)", ["text": .string((0..<45).map { _ in words.randomElement(using: &random) ?? "" }.joined(separator: " "))])
    }

    /// The zone's batches from its start.
    static func batches(_ partition: any LogPartition) throws -> [RecordBatch] {
        var all: [RecordBatch] = []
        var offset = partition.startOffset
        while offset < partition.endOffset {
            let batches = try partition.batches(from: offset, maxBytes: 1 << 20)
            guard let last = batches.last else { break }
            all += batches
            offset = last.header.lastOffset + 1
        }
        return all
    }

    /// Every record name changed since `token`, across pages.
    static func changedNames(_ database: Database, since token: ServerChangeToken?) async throws -> [String] {
        var names: [String] = []
        var token = token
        var page: ZoneChanges
        repeat {
            page = try await database.fetchZoneChanges(in: .default, since: token)
            names += page.changedRecords.map(\.recordID.recordName)
            token = page.changeToken
        } while page.moreComing
        return names
    }

    @Test("small commits are re-batched in the background once they reach CompactionPolicy.rebatchingBytes; a change token taken before pages the same changes, and the latest commit's retry is answered from its own records")
    func rebatchesInBackground() async throws {
        try await withStoreDirectory { path in
            let log = try Log(directory: path, options: LogOptions(durability: .noSyncUnsafe))
            let database = try await Database(
                directory: path, log: log, maximumItemsPerRequest: 400, checkpointAfterEvents: 10_000,
                compaction: CompactionPolicy(rebatchingBytes: 16 << 10), logger: .init(label: "test"))
            var token: ServerChangeToken?
            for index in 0..<400 {
                _ = try await database.save(Self.note(index))
                if index == 99 { token = try await database.fetchZoneChanges(in: .default, since: nil).changeToken }
            }
            await database.compactor.idle()
            let partition = try database.zone(.default).partition
            let batches = try Self.batches(partition)
            // The newest small commits wait until they are 16 KiB and half of the zone: what is
            // guaranteed is that the first 16 KiB (some 45 commits) became one batch, and more.
            #expect(batches.count < 360, "\(batches.count) batches for 400 one-note commits")
            #expect(try await Self.changedNames(database, since: token) == (100..<400).map { "note-\($0)" })

            // The latest commit, in a millisecond of its own, then merged with the ones before by
            // an explicit compaction (which rolls the active segment).
            let start = Date().timeIntervalSince1970
            while Int64(Date().timeIntervalSince1970 * 1000) == Int64(start * 1000) {}
            let retryToken = Data("the last request".utf8)
            let last = Self.note(400)
            let saved = try await database.modifyRecords(saving: [last], deleting: [], clientChangeTokenData: retryToken)
            let lastTag = try #require(try saved.saveResults[last.recordID]?.get().recordChangeTag)
            try await database.compact(zone: .default)
            let end = partition.endOffset
            let merged = try #require(try partition.batches(from: end - 1, maxBytes: 1).first)
            try #require(merged.header.baseOffset < end - 2, "the latest commit shares its batch with earlier ones")

            let retry = try await database.modifyRecords(
                saving: [last, Self.note(399)], deleting: [], atomically: false, clientChangeTokenData: retryToken)
            #expect(try retry.saveResults[last.recordID]?.get().recordChangeTag == lastTag)
            #expect(throws: RecordStoreError.self, "note-399 was written by an earlier commit of the batch, not by the one retried") {
                try retry.saveResults[Self.note(399).recordID]?.get()
            }
            #expect(partition.endOffset == end, "a retry writes nothing")
            #expect(try await Self.changedNames(database, since: nil).count == 401)
            try database.close()

            let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(try await Self.changedNames(reopened, since: token) == (100...400).map { "note-\($0)" })
            try reopened.close()
        }
    }
}
