import Foundation
import LogInspection
import RecordLog
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

/// verify checks what the writer's open checks, and both name the same file.
@Suite struct InspectVerifyAgreementTests {
    /// A copy of the clean notes store to damage.
    static func withStoreCopy(_ body: (String) throws -> Void) throws {
        let copy = try storeCopy()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try body(copy)
    }

    /// A fresh copy of the clean notes store, in a temporary directory.
    static func storeCopy() throws -> String {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("verify-agree-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: InspectFixtures.notesStore, toPath: copy)
        return copy
    }

    /// As ``withStoreCopy(_:)``, for a body that awaits.
    static func withStoreCopyAsync(_ body: (String) async throws -> Void) async throws {
        let copy = try storeCopy()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try await body(copy)
    }

    static func openingError(_ store: String) -> LogError? {
        do {
            try Log(directory: store, options: LogOptions(durability: .noSyncUnsafe)).close()
            return nil
        } catch {
            return error as? LogError
        }
    }

    @Test("a damaged recordlog.meta or zone.name: verify and the writer's open both refuse, naming the file",
          arguments: ["recordlog.meta", "zones/Notes/zone.name"])
    func damagedSmallFile(file: String) throws {
        try Self.withStoreCopy { store in
            let path = store + "/" + file
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            bytes[2] ^= 0x08
            try bytes.write(to: URL(fileURLWithPath: path))

            let report = try Verify.run(InspectTarget(path: store))
            #expect(report.status == .corrupt)
            let problem = try #require(report.problems.first { $0.kind == .metadata })
            #expect(problem.file == file)
            guard case .damagedFile(let refused, _)? = Self.openingError(store) else {
                Issue.record("the writer's open must refuse with damagedFile")
                return
            }
            #expect(refused == path)
        }
    }

    @Test("a flip in the last, durable batch: verify says corruption, and the writer's open refuses")
    func flipInDurableLastBatch() throws {
        try Self.withStoreCopy { store in
            let segment = store + "/zones/Notes/00000000000000000000.log"
            let batches = try SegmentScan.scan(path: segment, expectedBaseOffset: 0)
            let last = try #require(batches.last)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
            bytes[Int(last.position) + 61] ^= 0x01
            try bytes.write(to: URL(fileURLWithPath: segment))

            let report = try Verify.run(InspectTarget(path: store))
            #expect(report.status == .corrupt)
            let problem = try #require(report.problems.first { $0.isError })
            #expect(problem.kind == .corruption)
            #expect(problem.position == last.position)
            #expect(problem.message.contains("durable"))
            guard case .corruptBatch(_, let position, _, _)? = Self.openingError(store) else {
                Issue.record("the writer's open must refuse with corruptBatch")
                return
            }
            #expect(position == last.position)
        }
    }
}

/// verify reads the system partition against the zone directories, as the database's open does.
@Suite struct InspectVerifyZoneRegistryTests {
    @Test("a zone directory the system partition does not register is reported, by name, as an error")
    func unregisteredZone() async throws {
        try await InspectVerifyAgreementTests.withStoreCopyAsync { store in
            let log = try Log(directory: store, options: LogOptions(durability: .noSyncUnsafe))
            var batch = RecordBatchBuilder()
            batch.append(key: "stray", value: [1, 2, 3])
            _ = try await log.createPartition(named: "Stray").append(batch)
            try log.close()

            let report = try Verify.run(InspectTarget(path: store))
            #expect(report.status == .corrupt)
            let problem = try #require(report.problems.first { $0.kind == .unregisteredZone })
            #expect(problem.zone == "Stray")
            #expect(problem.file == "zones/Stray")
        }
    }
}
