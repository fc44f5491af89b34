import Foundation
import LogInspection
import Testing

/// Every log-inspect command's output on the committed fixtures equals the golden file that
/// Tools/fixtures/make-goldens.sh wrote by running the tool.
@Suite struct InspectGoldenTests {
    static let fixtures: [(name: String, path: String)] = [
        ("notes-store", InspectFixtures.notesStore), ("notes-store-torn", InspectFixtures.tornStore),
        ("notes-store-flipped", InspectFixtures.flippedStore), ("kafka-python", InspectFixtures.kafkaSegment),
    ]

    @Test(arguments: fixtures)
    func summaryJSON(fixture: (name: String, path: String)) throws {
        let summary = try Summary(InspectTarget(path: fixture.path))
        try expectGolden("inspect-summary-\(fixture.name).json", summary.json().pretty() + "\n")
    }

    @Test(arguments: fixtures)
    func dumpJSONLines(fixture: (name: String, path: String)) throws {
        // As make-goldens.sh: the foreign segment's golden stops before its ~70 KB batch.
        let filter = fixture.name == "kafka-python" ? DumpFilter(to: 4) : DumpFilter()
        let lines = try InspectFixtures.dumpLines(fixture.path, filter: filter)
        try expectGolden("inspect-dump-\(fixture.name).jsonl", InspectFixtures.output(lines))
    }

    @Test(arguments: fixtures)
    func dumpBatchesJSONLines(fixture: (name: String, path: String)) throws {
        let lines = try InspectFixtures.dumpLines(fixture.path, batches: true)
        try expectGolden("inspect-dump-batches-\(fixture.name).jsonl", InspectFixtures.output(lines))
    }

    @Test(arguments: fixtures)
    func verifyJSON(fixture: (name: String, path: String)) throws {
        let report = try Verify.run(InspectTarget(path: fixture.path))
        try expectGolden("inspect-verify-\(fixture.name).json", report.json().pretty() + "\n")
    }

    @Test func textFormsOfTheNotesStore() throws {
        let target = try InspectTarget(path: InspectFixtures.notesStore)
        try expectGolden("inspect-summary-notes-store.txt", try Summary(target).text() + "\n")
        try expectGolden("inspect-dump-notes-store.txt", InspectFixtures.output(InspectFixtures.dumpLines(InspectFixtures.notesStore, json: false)))
        try expectGolden("inspect-verify-notes-store.txt", try Verify.run(target).text() + "\n")
    }

    private func expectGolden(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try #require(InspectFixtures.golden(name), "missing Fixtures/golden/\(name): run Tools/fixtures/make-goldens.sh")
        guard actual != expected else { return }
        let (got, want) = (actual.split(separator: "\n", omittingEmptySubsequences: false), expected.split(separator: "\n", omittingEmptySubsequences: false))
        let line = (0..<min(got.count, want.count)).first { got[$0] != want[$0] } ?? min(got.count, want.count)
        let show = { (lines: [Substring]) in line < lines.count ? String(lines[line].prefix(300)) : "<end>" }
        Issue.record("Fixtures/golden/\(name) differs at line \(line + 1):\n  got:  \(show(got))\n  want: \(show(want))", sourceLocation: sourceLocation)
    }
}
