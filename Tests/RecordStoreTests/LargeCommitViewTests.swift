import Foundation
@testable import RecordStore
import Synchronization
import Testing
import TuningSupport

@Suite(.everyTuning) struct LargeCommitViewTests {
    /// A commit of `largeCommitItems` or more is folded into the views on a second thread, after
    /// the call returns: a view read after that holds it, in log order.
    @Test("a large commit is in every view, in log order, when modifyRecords returns", arguments: StoreKind.allCases)
    func largeCommitFoldedBeforeReturn(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let sequence = try database.register(EventSequence.self)
            let texts = try database.register(NoteTexts.self)
            let count = CommitTuning.standard.largeCommitItems * 2
            let parents = (0..<count).map { makeRecord("parent\($0)", ["text": .string("p\($0)")]) }
            _ = try await database.modifyRecords(saving: parents, deleting: [])
            #expect(await sequence.current.events.count == count)
            #expect(await texts.current.texts["_defaultZone"]?.count == count)

            // Children that go with their parents, updates, and deletes, all in one commit.
            var children: [Record] = []
            for index in 0..<count {
                var child = makeRecord("child\(index)", ["text": .string("c\(index)")])
                child["parent"] = .reference(Reference(recordID: parents[index].recordID, action: .deleteSelf))
                children.append(child)
            }
            _ = try await database.modifyRecords(saving: children, deleting: [])
            let stored = try await database.fetchZoneChanges(in: .default, since: nil).changedRecords
            var updates = stored.filter { $0.recordID.recordName.hasPrefix("parent") }.prefix(count / 2).map { record in
                var record = record
                record["text"] = .string("edited \(record.recordID.recordName)")
                return record
            }
            updates.sort { $0.recordID.recordName < $1.recordID.recordName }
            let doomed = (count / 2..<count).map { parents[$0].recordID }
            let result = try await database.modifyRecords(saving: Array(updates), deleting: doomed)
            #expect(result.deleteResults.count == doomed.count)

            // The live views equal the views rebuilt from the log, event for event.
            #expect(await sequence.current == (try database.rebuild(EventSequence.self)))
            #expect(await texts.current == (try database.rebuild(NoteTexts.self)))
            let expected = count // half the parents and their children are left
            #expect(await texts.current.texts["_defaultZone"]?.count == expected)
            let deletions = await sequence.current.events.filter { $0.hasPrefix("delete ") }
            #expect(deletions.count == count, "the doomed parents and, by cascade, their children")
        }
    }

    /// A zone deleted right after a large commit into it: the deletion must reach the views after
    /// the commit's fold, which may still be running, or the views would keep the zone's records.
    @Test("a zone deleted right after a large commit into it is gone from every view", arguments: StoreKind.allCases)
    func zoneDeletedAfterLargeCommit(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let texts = try database.register(NoteTexts.self)
            let sequence = try database.register(EventSequence.self)
            for round in 0..<20 {
                let zone = try await database.createZone(ZoneID(zoneName: "doomed\(round)"))
                let records = (0..<database.maximumItemsPerRequest).map { makeRecord("n\($0)", zone: zone, ["text": .string("t\($0)")]) }
                _ = try await database.modifyRecords(saving: records, deleting: [])
                try await database.deleteZone(zone)
                #expect(await texts.current.texts[zone.zoneName] == nil, "round \(round)")
                #expect(await sequence.current.events.last == "zone deleted \(zone.zoneName)", "round \(round)")
            }
            #expect(await texts.current == (try database.rebuild(NoteTexts.self)))
        }
    }

    /// Readers of two views go on while large commits fold into both: each view folds on its own
    /// queue, and a read suspends only for its own view's folds.
    @Test("reading two views while large commits fold into both does not deadlock", .timeLimit(.minutes(10)), arguments: StoreKind.allCases)
    func nestedReadsDuringFolds(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let texts = try database.register(NoteTexts.self)
            let sequence = try database.register(EventSequence.self)
            let done = Atomic<Bool>(false)
            let reader = Task.detached {
                var reads = 0
                while !done.load(ordering: .acquiring) {
                    reads += await texts.read { $0.texts.count } + sequence.read { $0.events.count }
                    reads += await sequence.read { $0.events.count } + texts.read { $0.texts.count }
                    await Task.yield()  // a read with no fold pending does not suspend (ViewCommitAtomicityTests)
                }
                return reads
            }
            for commit in 0..<50 {
                let records = (0..<database.maximumItemsPerRequest).map { makeRecord("c\(commit)-\($0)", ["text": .string("x")]) }
                _ = try await database.modifyRecords(saving: records, deleting: [])
            }
            done.store(true, ordering: .releasing)
            _ = await reader.value
            #expect(await sequence.current.events.count == 50 * database.maximumItemsPerRequest)
        }
    }

    /// Writers committing at once, each a large commit and at once a small one, saves and
    /// deletes: the folds reach each view in log order, whichever thread runs them.
    @Test("concurrent large and small commits leave every view equal to its replay", arguments: StoreKind.allCases)
    func concurrentMixedCommits(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let texts = try database.register(NoteTexts.self)
            let sequence = try database.register(EventSequence.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for round in 0..<12 {
                            let large = (0..<database.maximumItemsPerRequest).map { makeRecord("w\(writer)-r\(round)-\($0)", ["text": .string("v\(round)")]) }
                            _ = try await database.modifyRecords(saving: large, deleting: [])
                            // Right after: a small commit that edits and deletes what the large one saved.
                            var edited = try await database.record(for: large[0].recordID)
                            edited["text"] = .string("edited")
                            _ = try await database.modifyRecords(saving: [edited], deleting: [large[1].recordID])
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(await texts.current == (try database.rebuild(NoteTexts.self)))
            #expect(await sequence.current == (try database.rebuild(EventSequence.self)))
        }
    }
}
