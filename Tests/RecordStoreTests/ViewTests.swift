import Foundation
import Testing
import TuningSupport
@testable import RecordStore
import TestSupport

@Suite(.everyTuning) struct ViewTests {
    /// Applies a random history of saves, updates, deletes (with cascades), zone creations and
    /// deletions, checking after every step that the live view equals the view rebuilt by replay.
    @Test("a live view equals the same view rebuilt from the log, over random histories", arguments: StoreKind.allCases, [1, 2, 3, 4, 5] as [UInt64])
    func liveEqualsReplayed(kind: StoreKind, seed: UInt64) async throws {
        let database = try await openTemporaryDatabase(kind)
        var random = SeededGenerator(seed: seed)
        let live = try database.register(NoteTexts.self)
        var zones: [ZoneID] = [.default]
        for step in 0..<60 {
            let zone = zones.randomElement(using: &random) ?? .default
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                let created = ZoneID(zoneName: "zone\(step)")
                try await database.createZone(created)
                zones.append(created)
            case 1 where zones.count > 1:
                let doomed = zones.removeLast()
                try await database.deleteZone(doomed)
            default:
                let existing = try await database.fetchZoneChanges(in: zone, since: nil).changedRecords
                var saves: [Record] = []
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    if let victim = existing.randomElement(using: &random), Bool.random(using: &random),
                        !saves.contains(where: { $0.recordID == victim.recordID })
                    {
                        var updated = victim
                        updated["text"] = .string("edit \(step) \(Int.random(in: 0..<1000, using: &random))")
                        saves.append(updated)
                    } else {
                        var note = Record(recordType: "Note", recordID: RecordID(recordName: "n\(step)-\(saves.count)", zoneID: zone))
                        note["text"] = .string("note \(step)")
                        if let parent = existing.randomElement(using: &random), Bool.random(using: &random) {
                            note["parent"] = .reference(Reference(recordID: parent.recordID, action: .deleteSelf))
                        }
                        saves.append(note)
                    }
                }
                let savedIDs = Set(saves.map(\.recordID))
                let deletes = existing.map(\.recordID).filter { !savedIDs.contains($0) }.shuffled(using: &random).prefix(Int.random(in: 0...1, using: &random))
                _ = try await database.modifyRecords(saving: saves, deleting: Array(deletes), atomically: false)
            }
            let replayed = try database.rebuild(NoteTexts.self)
            #expect(await live.current == replayed, "step \(step)")
        }
        let liveNotes = await live.current.texts.values.reduce(0) { $0 + $1.count }
        let fetched = try await database.fetchZoneChanges(in: .default, since: nil).changedRecords.count
        let liveInZone = await live.current.texts["_defaultZone"]?.count ?? 0
        #expect(liveNotes > 0 && liveInZone == fetched, "the view holds the store's notes")
        try database.removeTemporaryDirectory()
    }

    @Test("a view registered on a reopened store starts from its snapshot and equals a rebuild")
    func snapshotThenTail() async throws {
        let database = try await Database.temporary()
        let directory = try #require(database.directory)
        _ = try database.register(NoteTexts.self)
        for index in 0..<20 {
            var note = Record(recordType: "Note", recordID: RecordID(recordName: "n\(index)"))
            note["text"] = .string("note \(index)")
            _ = try await database.save(note)
        }
        try database.close()  // writes the view's snapshot

        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        var extra = Record(recordType: "Note", recordID: RecordID(recordName: "later"))
        extra["text"] = .string("after the snapshot")
        _ = try await reopened.save(extra)
        try await reopened.delete(RecordID(recordName: "n3"))
        let view = try reopened.register(NoteTexts.self)
        #expect(await view.current == (try reopened.rebuild(NoteTexts.self)))
        #expect(await view.current.texts["_defaultZone"]?["later"] == "after the snapshot")
        #expect(await view.current.texts["_defaultZone"]?["n3"] == nil)
        #expect(await view.current.texts["_defaultZone"]?.count == 20)
        try reopened.removeTemporaryDirectory()
    }

    @Test("a damaged view snapshot is ignored and the view is rebuilt by replay")
    func damagedSnapshot() async throws {
        let database = try await Database.temporary()
        let directory = try #require(database.directory)
        _ = try database.register(NoteTexts.self)
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "n"))
        note["text"] = .string("kept")
        _ = try await database.save(note)
        try database.close()
        let path = directory + "/snapshots/view-\(NoteTexts.name).snapshot"
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        let view = try reopened.register(NoteTexts.self)
        #expect(await view.current.texts["_defaultZone"] == ["n": "kept"])
        try reopened.removeTemporaryDirectory()
    }

    @Test("registering a view again shares its handle; a bad name or a name taken by another type is refused", arguments: StoreKind.allCases)
    func registration(kind: StoreKind) async throws {
        let database = try await openTemporaryDatabase(kind)
        let first = try database.register(NoteTexts.self)
        let second = try database.register(NoteTexts.self)
        #expect(first === second)
        #expect(throws: RecordStoreError.self) { try database.register(BadlyNamed.self) }
        #expect(throws: RecordStoreError.self) { try database.register(Impostor.self) }
        try database.removeTemporaryDirectory()
    }
}

/// Every live note's text by zone and record name.
struct NoteTexts: MaterializedView {
    static let name = "note-texts"
    var texts: [String: [String: String]] = [:]

    mutating func apply(_ event: ViewEvent) {
        switch event {
        case .saved(let record):
            guard case .string(let text)? = record["text"] else { return }
            texts[record.recordID.zoneID.zoneName, default: [:]][record.recordID.recordName] = text
        case .deleted(let id, _):
            texts[id.zoneID.zoneName]?[id.recordName] = nil
            if texts[id.zoneID.zoneName]?.isEmpty == true { texts[id.zoneID.zoneName] = nil }
        case .zoneDeleted(let zoneID):
            texts[zoneID.zoneName] = nil
        }
    }
}

struct BadlyNamed: MaterializedView {
    static let name = "bad/name"
    mutating func apply(_ event: ViewEvent) {}
}

/// A different view type that claims `NoteTexts`'s name.
struct Impostor: MaterializedView {
    static let name = NoteTexts.name
    mutating func apply(_ event: ViewEvent) {}
}

/// A view that asks not to be snapshotted.
struct UnsnapshottedTexts: MaterializedView {
    static let name = "unsnapshotted-texts"
    static let keepsSnapshot = false
    var inner = NoteTexts()
    mutating func apply(_ event: ViewEvent) { inner.apply(event) }
}

@Suite(.everyTuning) struct ViewSnapshotOptOutTests {
    @Test("a view that keeps no snapshot writes none and is rebuilt by replay when registered again")
    func optOut() async throws {
        let database = try await Database.temporary()
        let directory = try #require(database.directory)
        _ = try database.register(UnsnapshottedTexts.self)
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "n"))
        note["text"] = .string("from the log")
        _ = try await database.save(note)
        try database.close()
        #expect(!FileManager.default.fileExists(atPath: directory + "/snapshots/view-\(UnsnapshottedTexts.name).snapshot"))
        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        let view = try reopened.register(UnsnapshottedTexts.self)
        #expect(await view.current.inner.texts["_defaultZone"] == ["n": "from the log"])
        try reopened.removeTemporaryDirectory()
    }
}

/// Records the replay hint it was given.
struct ReplayHintRecorder: ReplayHintedView {
    static let name = "replay-hint"
    static let keepsSnapshot = false
    var hint: [String: Int]?
    var replayed = 0
    var saves = 0

    mutating func apply(_ event: ViewEvent) { if case .saved = event { saves += 1 } }
    mutating func willReplay(liveRecordsByType: [String: Int]) { hint = liveRecordsByType }
    mutating func didReplay() { replayed += 1 }
    func prefetch(forSaved recordID: RecordID) {}
}

/// A plain view with a method of the hints' name: hints are opt-in, so it is never called.
struct UnhintedView: MaterializedView {
    static let name = "unhinted"
    static let keepsSnapshot = false
    var hinted = false
    var saves = 0

    mutating func apply(_ event: ViewEvent) { if case .saved = event { saves += 1 } }
    mutating func willReplay(liveRecordsByType: [String: Int]) { hinted = true }
}

@Suite(.everyTuning) struct ViewReplayHintTests {
    @Test("a replay tells the view how many live records of each type it will see, over every zone", arguments: StoreKind.allCases)
    func liveCountsByType(kind: StoreKind) async throws {
        let database = try await openTemporaryDatabase(kind)
        let other = ZoneID(zoneName: "Other")
        try await database.createZone(other)
        _ = try await database.modifyRecords(
            saving: [
                makeRecord("a"), makeRecord("b"), makeRecord("c", type: "Folder"),
                makeRecord("d", zone: other), makeRecord("e", zone: other, type: "Tag"),
            ],
            deleting: [])
        try await database.delete(RecordID(recordName: "b"))
        _ = try await database.save(makeRecord("a2"))
        let expected = ["Note": 3, "Folder": 1, "Tag": 1]
        let rebuilt = try database.rebuild(ReplayHintRecorder.self)
        #expect(rebuilt.hint == expected)
        #expect(rebuilt.replayed == 1)
        let registered = try database.register(ReplayHintRecorder.self)
        #expect(await registered.current.hint == expected)
        try database.removeTemporaryDirectory()
    }

    @Test("a view that does not opt in to replay hints gets none, and folds the same events", arguments: StoreKind.allCases)
    func hintsAreOptIn(kind: StoreKind) async throws {
        let database = try await openTemporaryDatabase(kind)
        _ = try await database.modifyRecords(saving: [makeRecord("a"), makeRecord("b")], deleting: [])
        let plain = try database.rebuild(UnhintedView.self)
        #expect(!plain.hinted)
        #expect(plain.saves == 2)
        #expect(try database.rebuild(ReplayHintRecorder.self).saves == plain.saves)
        try database.removeTemporaryDirectory()
    }
}
