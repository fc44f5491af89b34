import LogInspection
import Testing

/// verify's verdicts and exit statuses on the three notes stores and the foreign segment.
@Suite struct InspectVerifyTests {
    @Test func theCleanStoreIsClean() throws {
        let report = try Verify.run(InspectTarget(path: InspectFixtures.notesStore))
        #expect(report.status == .clean)
        #expect(report.exitCode == 0)
        #expect(report.problems.filter(\.isError).isEmpty)
    }

    @Test func aCutLastBatchIsATornTail() throws {
        let report = try Verify.run(InspectTarget(path: InspectFixtures.tornStore))
        #expect(report.status == .tornTail)
        #expect(report.exitCode == 1)
        let problem = try #require(report.problems.first { $0.isError })
        #expect(problem.kind == .tornTail)
        #expect(problem.zone == "Notes")
        #expect(problem.file == "zones/Notes/00000000000000000000.log")
        #expect(problem.position != nil && problem.offset != nil)
    }

    @Test func aFlippedByteMidLogIsCorruption() throws {
        let report = try Verify.run(InspectTarget(path: InspectFixtures.flippedStore))
        #expect(report.status == .corrupt)
        #expect(report.exitCode == 2)
        let problem = try #require(report.problems.first { $0.isError })
        #expect(problem.kind == .corruption)
        #expect(problem.message.contains("CRC"))
        let segment = try #require(report.segments.first { $0.file == problem.file })
        #expect(problem.position == segment.validBytes)
        #expect(segment.validBytes < segment.bytes)
    }

    @Test func theForeignSegmentIsClean() throws {
        let report = try Verify.run(InspectTarget(path: InspectFixtures.kafkaSegment))
        #expect(report.status == .clean)
        #expect(report.segments.map(\.records) == [8])
    }

    @Test func dumpCarriesOnPastTheDamage() throws {
        let batches = try InspectFixtures.dumpLines(InspectFixtures.flippedStore, filter: DumpFilter(zone: "Notes"), batches: true, json: false)
        let invalid = try #require(batches.firstIndex { $0.contains("valid=false") })
        #expect(batches[(invalid + 1)...].contains { $0.contains("valid=true") })
    }

    @Test func aMissingPathIsAnError() {
        #expect(throws: InspectError.notFound("/nonexistent/store")) { try InspectTarget(path: "/nonexistent/store") }
    }
}
