import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// Concurrent writers on one database.
@Suite(.everyTuning) struct DatabaseConcurrencyTests {
    @Test("16 tasks saving different records concurrently all succeed, each as its own commit", arguments: StoreKind.allCases)
    func concurrentDistinctSaves(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind, durability: .fsync) { database in
            let start = try database.endOffset(.default)
            let saved = try await withThrowingTaskGroup(of: Record.self) { group in
                for index in 0..<16 {
                    group.addTask { try await database.save(makeRecord("r\(index)", ["i": .int64(Int64(index))])) }
                }
                return try await group.reduce(into: [Record]()) { $0.append($1) }
            }
            #expect(saved.count == 16)
            #expect(Set(saved.compactMap(\.recordChangeTag)).count == 16, "distinct tags")
            #expect(try database.endOffset(.default) == start + 16)
            let fetched = try await database.records(for: saved.map(\.recordID))
            for record in saved { #expect(try fetched[record.recordID]?.get() == record) }
            let changes = try await database.fetchZoneChanges(in: .default, since: nil)
            #expect(Set(changes.changedRecords) == Set(saved))
        }
    }

    @Test("syncCount: a durable save costs one group sync, concurrent saves share them, unsafe durability none")
    func syncCount() async throws {
        try await withTemporaryDatabase(durability: .fsync) { database in
            let before = database.syncCount
            _ = try await database.save(makeRecord("alone"))
            #expect(database.syncCount == before + 1)
            // A large commit starts its sync early, while it applies itself: still one sync.
            let large = (0..<(CommitTuning.standard.largeCommitItems + 10)).map { makeRecord("large\($0)") }
            _ = try await database.modifyRecords(saving: large, deleting: [])
            #expect(database.syncCount == before + 2)
            let start = database.syncCount
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<16 {
                    group.addTask { _ = try await database.save(makeRecord("c\(index)")) }
                }
                try await group.waitForAll()
            }
            let syncs = database.syncCount - start
            #expect(syncs >= 1 && syncs <= 16, "at least one sync, and never more than one per commit")
        }
        try await withTemporaryDatabase(durability: .noSyncUnsafe) { database in
            _ = try await database.save(makeRecord("unsynced"))
            #expect(database.syncCount == 0)
        }
    }

    @Test("16 tasks racing to update one record with the same tag: exactly one wins, the others get serverRecordChanged", arguments: StoreKind.allCases)
    func racingSameTag(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            for round in 0..<5 {
                let base = try await database.save(makeRecord("contended\(round)", ["writer": .int64(-1)]))
                let outcomes = await withTaskGroup(of: Result<Record, RecordStoreError>.self) { group in
                    for writer in 0..<16 {
                        var copy = base
                        copy["writer"] = .int64(Int64(writer))
                        group.addTask {
                            do { return .success(try await database.save(copy)) } catch let error as RecordStoreError {
                                return .failure(error)
                            } catch {
                                return .failure(RecordStoreError(.internalError, "\(error)"))
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                let winners = outcomes.compactMap { try? $0.get() }
                let losers = outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
                #expect(winners.count == 1, "round \(round)")
                #expect(losers.count == 15)
                let winner = try #require(winners.first)
                for loser in losers {
                    #expect(loser.code == .serverRecordChanged, "\(loser)")
                    #expect(loser.serverRecord == winner, "the loser sees the winner's record")
                }
                #expect(try await database.record(for: base.recordID) == winner)
            }
        }
    }

    @Test("an atomic request that loses a race in its second zone has written nothing, and says so per item", arguments: StoreKind.allCases)
    func racingTwoZoneAtomicRequest(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind, durability: .fsync) { database in
            let zoneA = ZoneID(zoneName: "A")
            let zoneB = ZoneID(zoneName: "B")
            try await database.createZone(zoneA)
            try await database.createZone(zoneB)
            var problems: [String] = []
            var lostRaces = 0
            for round in 0..<20 {
                let base = try await database.save(makeRecord("contended\(round)", zone: zoneB))
                var mine = base
                mine["by"] = .string("request")
                var theirs = base
                theirs["by"] = .string("rival")
                let innocent = makeRecord("innocent\(round)", zone: zoneA)
                // Zones commit in name order: A (innocent) first, then B (contended).
                async let request: ModifyResult = database.modifyRecords(saving: [innocent, mine], deleting: [])
                async let rival: Record = database.save(theirs)
                let requestOutcome: Result<ModifyResult, any Error>
                do { requestOutcome = .success(try await request) } catch { requestOutcome = .failure(error) }
                _ = try? await rival
                guard case .failure(let error) = requestOutcome else { continue }
                lostRaces += 1
                let partial = error as? RecordStoreError
                if partial?.code != .partialFailure { problems.append("round \(round): \(error)") }
                if partial?.partialErrors[innocent.recordID]?.code != .batchRequestFailed {
                    problems.append("round \(round): no batchRequestFailed for the innocent item")
                }
                if (try? await database.record(for: innocent.recordID)) != nil {
                    problems.append("round \(round): the failed atomic request wrote zone A")
                }
            }
            #expect(lostRaces > 0 || problems.isEmpty)
            #expect(problems.isEmpty, "\(problems)")
            
        }
    }

    @Test("deleting and creating one zone concurrently leaves a consistent zone")
    func deleteAndCreateRace() async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path, durability: .fsync)
            let zone = ZoneID(zoneName: "Z")
            var broken: [String] = []
            for round in 0..<30 {
                try await database.createZone(zone)
                _ = try await database.save(makeRecord("old\(round)", zone: zone))
                async let deleted: Void = database.deleteZone(zone)
                async let created: ZoneID = database.createZone(zone)
                _ = try await (deleted, created)
                guard (try? await database.fetchZone(zone)) != nil else { continue }
                // The zone exists (created after the delete): it must be empty and writable.
                do {
                    let changes = try await database.fetchZoneChanges(in: zone, since: nil)
                    if !changes.changedRecords.isEmpty { broken.append("round \(round): the new zone shows the old zone's records") }
                    _ = try await database.save(makeRecord("new\(round)", zone: zone))
                    _ = try await database.record(for: RecordID(recordName: "new\(round)", zoneID: zone))
                } catch {
                    broken.append("round \(round): \(error)")
                }
                try? await database.deleteZone(zone)
            }
            try database.close()
            #expect(broken.isEmpty, "\(broken)")
            
        }
    }
}
