import Foundation
import LogInspection
import Testing

/// log-replay's JSON on `Fixtures/notes-store`, against `Fixtures/golden/replay-*` (written by
/// `Tools/fixtures/make-goldens.sh`; regenerate them with the fixture).
@Suite struct ReplayGoldenTests {
    /// After every event of the fixture: its "whole log" point.
    static let end = Int64.max

    @Test func stateJSON() throws {
        let store = try ReplayStore(directory: InspectFixtures.notesStore)
        defer { store.close() }
        try expectGolden("replay-state-notes-store-8.json", try store.state(zone: "Notes", at: .offset(8)).json)
        try expectGolden("replay-state-notes-store-end.json", try store.state(zone: nil, at: .time(Self.end)).json)
    }

    @Test func historyJSON() throws {
        let store = try ReplayStore(directory: InspectFixtures.notesStore)
        defer { store.close() }
        let events = try store.history(zone: "Notes", recordName: "default-folder")
        try expectGolden("replay-history-notes-store-default-folder.json", HistoryOutput.json(events))
    }

    @Test func diffJSON() throws {
        let store = try ReplayStore(directory: InspectFixtures.notesStore)
        defer { store.close() }
        try expectGolden("replay-diff-notes-store-4-14.json", try store.diff(zone: "Notes", from: 4, to: 14).json)
    }

    @Test("the fixture exported at offset 8 replays to the state golden at 8")
    func exportMatchesState() async throws {
        let store = try ReplayStore(directory: InspectFixtures.notesStore)
        let out = temporaryPath("golden-export")
        _ = try await store.export(at: .zoneOffset(zone: "Notes", offset: 8), to: out)
        store.close()
        let exported = try ReplayStore(directory: out)
        try expectGolden("replay-state-notes-store-8.json", try exported.state(zone: "Notes", at: .offset(8)).json)
        #expect(try exported.partition("Notes").endOffset == 8)
        exported.close()
        try FileManager.default.removeItem(atPath: out)
    }

    /// The command prints the JSON and a newline.
    private func expectGolden(_ name: String, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let golden = try #require(InspectFixtures.golden(name), "missing golden \(name): run Tools/fixtures/make-goldens.sh", sourceLocation: sourceLocation)
        #expect(json + "\n" == golden, "\(name) differs", sourceLocation: sourceLocation)
    }
}
