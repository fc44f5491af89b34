import Foundation
import Testing
import TuningSupport
@testable import RecordStore
import TestSupport

/// Every save reaches a view as the bytes the log holds (`apply(saved:)`), on a live commit as on
/// a replay and on a read-only database's catch-up: a live view is the fold of what its replay
/// folds.
@Suite(.everyTuning) struct LiveFoldTests {
    private func note(_ name: String, _ text: String) -> Record { makeRecord(name, ["text": .string(text)]) }

    @Test("a view that files saves only in apply(saved:) is kept live by small and large commits", arguments: StoreKind.allCases)
    func savesComeAsStoredRecords(kind: StoreKind) async throws {
        let database = try await openTemporaryDatabase(kind)
        let view = try database.register(StoredOnlyTexts.self)
        var expected: [String: String] = [:]
        _ = try await database.save(note("one", "first"))
        expected["one"] = "first"
        // Past `largeCommitItems` (64) under the standard tuning: folded on the view's queue.
        let many = (0..<200).map { note("n\($0)", "note \($0)") }
        _ = try await database.modifyRecords(saving: many, deleting: [], atomically: true)
        for index in 0..<200 { expected["n\(index)"] = "note \(index)" }
        var edited = try await database.record(for: RecordID(recordName: "n7"))
        edited["text"] = .string("edited")
        _ = try await database.modifyRecords(saving: [edited], deleting: [RecordID(recordName: "one")], atomically: true)
        expected["n7"] = "edited"
        expected["one"] = nil

        let live = await view.current
        #expect(live.texts == expected)
        #expect(live.changeTags["n7"] == (try await database.record(for: RecordID(recordName: "n7"))).recordChangeTag)
        #expect(live == (try database.rebuild(StoredOnlyTexts.self)))
        try database.removeTemporaryDirectory()
    }

    @Test("a view of whole records holds live what its replay holds, over random records of every field kind", arguments: [1, 2, 3] as [UInt64])
    func wholeRecordsLiveEqualReplayed(seed: UInt64) async throws {
        let database = try await openTemporaryDatabase(.files)
        let view = try database.register(WholeRecords.self)
        var random = SeededGenerator(seed: seed)
        // The records' references point at these.
        let targets = (0...9).map { Record(recordType: "Target", recordID: RecordID(recordName: "target\($0)")) }
        _ = try await database.modifyRecords(saving: targets, deleting: [], atomically: true)
        for commit in 0..<4 {
            // One small commit and larger ones, so that both fold paths run.
            let count = commit == 0 ? 1 : 90
            let records = (0..<count).map { RandomRecord.make(index: commit * 100 + $0, zoneID: .default, using: &random) }
            _ = try await database.modifyRecords(saving: records, deleting: [], atomically: true)
        }
        let live = await view.current
        #expect(live.records.count == 281)
        #expect(live == (try database.rebuild(WholeRecords.self)))
        let fetched = try await database.fetchZoneChanges(in: .default, since: nil).changedRecords
        #expect(fetched.allSatisfy { live.records[$0.recordID.recordName] == $0 }, "the view holds each record as a fetch returns it")
        try database.removeTemporaryDirectory()
    }

    @Test("a read-only database folds the writer's saves into its views through apply(saved:)")
    func readerFoldsStoredRecords() async throws {
        try await withStoreDirectory { path in
            let writer = try await Database(directory: path)
            _ = try await writer.save(note("a", "one"))
            let reader = try await Database(directory: path, readOnly: true)
            let view = try reader.register(StoredOnlyTexts.self)
            _ = try await writer.modifyRecords(saving: [note("b", "two"), note("c", "three")], deleting: [RecordID(recordName: "a")], atomically: true)
            try await reader.refresh()
            #expect(await view.current.texts == ["b": "two", "c": "three"])
            #expect(await view.current == (try reader.rebuild(StoredOnlyTexts.self)))
        }
    }

    @Test("a commit's value buffer is refilled only once no view's fold holds it")
    func valueBuffersAreReusedWhenFree() throws {
        var buffers = CommitBuffers()
        var first: CommitValues? = buffers.takeValues()
        let firstID = first.map(ObjectIdentifier.init)
        try first?.append(note("a", "one"), bound: 1024)
        // Held (by a fold in flight): the next commit gets other memory, and "a" stays intact.
        let second = buffers.takeValues()
        #expect(ObjectIdentifier(second) != firstID)
        #expect(first?.count == 1)
        // Released: the next commit refills it, emptied.
        first = nil
        let third = buffers.takeValues()
        #expect(ObjectIdentifier(third) == firstID)
        #expect(third.count == 0)
    }
}

/// Each note's text and change tag, filed only from stored records: `apply(_:)` ignores saves.
struct StoredOnlyTexts: MaterializedView {
    static let name = "stored-only-texts"
    var texts: [String: String] = [:]
    var changeTags: [String: String] = [:]

    mutating func apply(_ event: ViewEvent) {
        switch event {
        case .saved:
            break
        case .deleted(let id, _):
            texts[id.recordName] = nil
            changeTags[id.recordName] = nil
        case .zoneDeleted:
            texts = [:]
            changeTags = [:]
        }
    }

    mutating func apply(saved record: StoredRecord) {
        guard record.hasRecordType("Note"), case .string(let text)? = record["text"] else { return }
        texts[record.recordID.recordName] = text
        changeTags[record.recordID.recordName] = record.recordChangeTag
    }
}

/// Every record whole, by name, through the default `apply(saved:)`.
struct WholeRecords: MaterializedView {
    static let name = "whole-records"
    var records: [String: Record] = [:]

    mutating func apply(_ event: ViewEvent) {
        switch event {
        case .saved(let record): records[record.recordID.recordName] = record
        case .deleted(let id, _): records[id.recordName] = nil
        case .zoneDeleted: records = [:]
        }
    }
}
