import LogInspection
import NotesReplay
import Testing
import TestSupport

/// `log-replay notes --json` on `Fixtures/notes-store`, against `Fixtures/golden/replay-notes-*`
/// (written by `Tools/fixtures/make-goldens.sh`; regenerate them with the fixture).
@Suite struct NotesGoldenTests {
    @Test("the notes at offset 8 and at the end of the fixture print as their goldens, byte for byte")
    func notesJSON() throws {
        let store = try ReplayStore(directory: Fixtures.path("notes-store"))
        defer { store.close() }
        try expectGolden("replay-notes-notes-store-8.json", try store.notes(at: .zoneOffset(zone: "Notes", offset: 8)).json)
        try expectGolden("replay-notes-notes-store-end.json", try store.notes(at: .time(Int64.max)).json)
    }

    /// The command prints the JSON and a newline.
    private func expectGolden(_ name: String, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let golden = try #require(Fixtures.golden(name), "missing golden \(name): run Tools/fixtures/make-goldens.sh", sourceLocation: sourceLocation)
        #expect(json + "\n" == golden, "\(name) differs", sourceLocation: sourceLocation)
    }
}
