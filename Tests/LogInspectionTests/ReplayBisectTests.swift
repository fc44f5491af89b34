import Foundation
import LogInspection
import RecordStore
import Testing
import TestSupport

/// `log-replay bisect`: the first offset whose event breaks an invariant, in O(log n) replays.
@Suite struct ReplayBisectTests {
    static let zone = ZoneID(zoneName: "Items")
    static let count = 100

    /// A store whose zone Items holds `count` saves, one per commit: offset i saves `r<i>` with
    /// `n` = i, so "no record has n = k" breaks exactly at offset k.
    static func withStore(_ body: (ReplayStore) async throws -> Void) async throws {
        // Durable commits: a reader beside a live writer sees only what the writer made durable.
        let database = try await Database.temporary(durability: .fsync)
        try await database.createZone(zone)
        for index in 0..<count {
            var record = Record(recordType: "Item", recordID: RecordID(recordName: "r\(index)", zoneID: zone))
            record["n"] = .int64(Int64(index))
            _ = try await database.save(record)
        }
        let store = try ReplayStore(directory: try #require(database.directory))
        defer {
            store.close()
            try? database.removeTemporaryDirectory()
        }
        try await body(store)
    }

    static func lacks(_ value: Int64) -> (ReplayState) -> Bool {
        { state in !state.records.contains { $0.record["n"] == .int64(value) } }
    }

    @Test("finds the first bad offset at the start, the middle and the end", arguments: [0, 1, 50, 98, 99])
    func findsFirstBadOffset(bad: Int) async throws {
        try await Self.withStore { store in
            let outcome = try await store.bisect(zone: "Items", invariant: Self.lacks(Int64(bad)))
            guard case .found(let result) = outcome else { Issue.record("not found: \(outcome)"); return }
            #expect(result.firstBadOffset == Int64(bad))
            #expect(result.event?.record.offset == Int64(bad))
            #expect(result.event?.record.keyString == "r\(bad)")
            #expect(result.diff.added.map(\.recordName) == ["r\(bad)"])
            #expect(result.diff.changed.isEmpty && result.diff.deleted.isEmpty)
            // Two ends, then ⌈log2 100⌉ = 7 halvings at most.
            #expect(result.replays <= 2 + 7)
        }
    }

    @Test("searches only between --from and --to")
    func range() async throws {
        try await Self.withStore { store in
            let outcome = try await store.bisect(zone: "Items", from: 40, to: 60, invariant: Self.lacks(45))
            guard case .found(let result) = outcome else { Issue.record("not found"); return }
            #expect(result.firstBadOffset == 45)
            #expect(result.replays <= 2 + 5)
        }
    }

    @Test("says so when the ends do not bracket a change")
    func notBracketed() async throws {
        try await Self.withStore { store in
            guard case .notBracketed(let reason, let replays) = try await store.bisect(zone: "Items", invariant: { _ in true }) else {
                Issue.record("a state that is always good has no first bad offset")
                return
            }
            #expect(reason.contains("(--to) satisfies the invariant"))
            #expect(replays == 2)
            guard case .notBracketed(let early, _) = try await store.bisect(zone: "Items", invariant: { _ in false }) else {
                Issue.record("a state bad from the start has no first bad offset")
                return
            }
            #expect(early.contains("(--from) already breaks the invariant"))
            // The bad offset 70 lies outside 10..<60: the end is still good.
            guard case .notBracketed = try await store.bisect(zone: "Items", from: 10, to: 60, invariant: Self.lacks(70)) else {
                Issue.record("not bracketed expected")
                return
            }
        }
    }

    @Test("refuses offsets outside the zone and unknown zones")
    func refusals() async throws {
        try await Self.withStore { store in
            await #expect(throws: ReplayError.offsetBeyondEnd(zone: "Items", offset: 500, end: 100)) {
                _ = try await store.bisect(zone: "Items", to: 500) { _ in true }
            }
            await #expect(throws: ReplayError.self) { _ = try await store.bisect(zone: "Nope") { _ in true } }
        }
    }

    @Test("a shell invariant reads the state's JSON on standard input; exit 0 is good")
    func shellInvariant() async throws {
        let json = "[{\"n\": 1}]\n"
        #expect(try await ShellInvariant(command: "grep -q '\"n\": 1'").holds(for: json))
        #expect(try await !ShellInvariant(command: "grep -q '\"n\": 2'").holds(for: json))
        #expect(try await !ShellInvariant(command: "kill -9 $$").holds(for: json), "killed by a signal is bad")
        // A command that reads nothing of a large input neither blocks nor fails the check.
        #expect(try await ShellInvariant(command: "true").holds(for: String(repeating: "x", count: 4 << 20)))
    }

    /// The invariant the tool tests use: fewer than three live notes.
    static let fewerThanThreeNotes = "test $(grep -c '\"recordType\": \"Note\"') -lt 3"

    @Test("the command prints the event and the diff, and its JSON has the documented shape")
    func command() async throws {
        let tool = try #require(ChildProcess.builtExecutable("log-replay"))
        let text = try await ChildProcess.runOnOwnThread(tool, [
            "bisect", InspectFixtures.notesStore, "--zone", "Notes", "--invariant", Self.fewerThanThreeNotes,
        ])
        #expect(text.status == 0)
        #expect(text.outputText.hasPrefix("first bad offset: 4 in zone Notes"))
        #expect(text.outputText.contains("  Notes 4 2026-11-25T11:19:23.618Z save type=Note key=D973A676-1BC4-4D9B-878C-7A833AAB6083"))
        #expect(text.outputText.contains("+ D973A676-1BC4-4D9B-878C-7A833AAB6083 (Note) @4"))
        let json = try await ChildProcess.runOnOwnThread(tool, [
            "bisect", InspectFixtures.notesStore, "--zone", "Notes", "--json", "--invariant", Self.fewerThanThreeNotes,
        ])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: json.output) as? [String: Any])
        #expect(Set(object.keys) == ["firstBadOffset", "event", "diff", "replays"])
        #expect(object["firstBadOffset"] as? Int == 4)
        let event = try #require(object["event"] as? [String: Any])
        let dumped = try InspectFixtures.dumpLines(InspectFixtures.notesStore, filter: DumpFilter(zone: "Notes", from: 4, to: 5))
        #expect(event as NSDictionary == (try JSONSerialization.jsonObject(with: Data(dumped[0].utf8)) as? NSDictionary))
        #expect((object["diff"] as? [String: Any])?["from"] as? Int == 4)
    }

    @Test("the command exits 1 when not bracketed and 64 for a usage error")
    func commandExitCodes() async throws {
        let tool = try #require(ChildProcess.builtExecutable("log-replay"))
        let never = try await ChildProcess.runOnOwnThread(tool, ["bisect", InspectFixtures.notesStore, "--zone", "Notes", "--invariant", "true"])
        #expect(never.status == 1)
        #expect(never.errorText.contains("not bracketed"))
        #expect(never.outputText.isEmpty)
        let usage = try await ChildProcess.runOnOwnThread(tool, ["bisect", InspectFixtures.notesStore, "--zone", "Notes"])
        #expect(usage.status == 64)
        let reversed = try await ChildProcess.runOnOwnThread(tool, [
            "bisect", InspectFixtures.notesStore, "--zone", "Notes", "--from", "9", "--to", "3", "--invariant", "true",
        ])
        #expect(reversed.status == 64)
    }
}
