import Foundation
import RecordLog
import Testing
import TestSupport

@testable import RecordStore

/// Every event a view is handed, in order: two folds (live or replayed) handed the same events in the same
/// order exactly when their sequences are equal.
struct EventSequence: MaterializedView {
    static let name = "event-sequence"
    static let keepsSnapshot = false
    var events: [String] = []

    mutating func apply(_ event: ViewEvent) {
        switch event {
        case .saved(let record):
            let text = record["text"].map { "\($0)" } ?? "-"
            events.append("save \(record.recordID.zoneID.zoneName)/\(record.recordID.recordName) \(record.recordChangeTag ?? "") \(text.count) \(text.hashValue)")
        case .deleted(let id, let recordType):
            events.append("delete \(id.zoneID.zoneName)/\(id.recordName) \(recordType)")
        case .zoneDeleted(let zoneID):
            events.append("zone deleted \(zoneID.zoneName)")
        }
    }
}

/// Long replays read on a second thread (`ReplayPipeline`); they must fold exactly what a replay
/// on one thread folds, and stop at the same bad record.
@Suite struct PipelinedReplayTests {
    /// A store with two zones, thousands of saves (some large, so that chunks fill by bytes as
    /// well as by count), edits and deletes.
    private static func history() async throws -> Database {
        let database = try await Database.temporary()
        let other = ZoneID(zoneName: "Other")
        try await database.createZone(other)
        var random = SeededGenerator(seed: 11)
        for commit in 0..<24 {
            var saves: [Record] = []
            for index in 0..<400 {
                let zone = index % 3 == 0 ? other : ZoneID.default
                let name = "r\(random.next() % 6_000)"
                let large = random.next() % 97 == 0
                let text = String(repeating: large ? "large " : "x", count: large ? 20_000 : Int(random.next() % 200))
                if !saves.contains(where: { $0.recordID == RecordID(recordName: name, zoneID: zone) }) {
                    saves.append(makeRecord(name, zone: zone, ["text": .string("\(commit) " + text)]))
                }
            }
            _ = try await database.modifyRecords(saving: saves, deleting: [], savePolicy: .allKeys)
            let doomed = saves.prefix(20).map(\.recordID)
            _ = try await database.modifyRecords(saving: [], deleting: doomed)
        }
        return database
    }

    @Test("a replay read on a second thread folds the same events in the same order as one thread")
    func sameEventsInOrder() async throws {
        let database = try await Self.history()
        let zones = database.state.withLock { Array($0.zones.values) }
        func replay(pipelinedFrom minimum: Int64) throws -> EventSequence {
            var view = EventSequence()
            try Database.replay(zones, from: [:], pipelinedFrom: minimum, saved: { view.apply(saved: $0) }, other: { view.apply($0) })
            return view
        }
        let single = try replay(pipelinedFrom: .max)
        let pipelined = try replay(pipelinedFrom: 0)
        #expect(single.events.count > 9_000, "the history is long enough to fill many chunks")
        #expect(pipelined.events == single.events)
        try database.removeTemporaryDirectory()
    }

    @Test("a record that cannot be read stops the replay on two threads with the error one thread gives")
    func badRecordStopsBoth() async throws {
        let database = try await Self.history()
        // A save whose value is not a record (wrong version byte), then more good commits after it.
        var batch = RecordBatchBuilder()
        batch.append(key: "broken", value: [0xEE, 1, 2, 3], headers: StoredEvent.headers(.save, recordType: "Note"))
        _ = try await database.log.partition(named: ZoneID.default.zoneName).append(batch)
        for index in 0..<3 {
            _ = try await database.modifyRecords(saving: (0..<300).map { makeRecord("after\(index)-\($0)") }, deleting: [])
        }
        let zones = database.state.withLock { Array($0.zones.values) }
        func failure(pipelinedFrom minimum: Int64) -> RecordDecodingError? {
            var folded = 0
            do {
                try Database.replay(zones, from: [:], pipelinedFrom: minimum, saved: { _ in folded += 1 }, other: { _ in })
                return nil
            } catch let error as RecordDecodingError {
                return error
            } catch {
                Issue.record("unexpected error \(error)")
                return nil
            }
        }
        let single = failure(pipelinedFrom: .max)
        #expect(single != nil)
        #expect(failure(pipelinedFrom: 0) == single)
        try database.removeTemporaryDirectory()
    }
}
