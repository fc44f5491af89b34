import Foundation
import RecordLog
import RecordStore
import Testing
import TestSupport

/// The built `recordlog` administration tool, run on copies of the fixtures: compact, repair,
/// checkpoint, and what `log-inspect summary` then shows.
@Suite struct RecordLogToolTests {
    private func run(_ tool: String, _ arguments: [String]) async throws -> ChildProcess.Outcome {
        let binary = try #require(ChildProcess.builtExecutable(tool), "build \(tool) first (swift build --build-tests)")
        return try await ChildProcess.run(binary, arguments)
    }

    /// Runs `body` with a fresh copy of the fixture store at `fixture`.
    private func withCopy(of fixture: String, _ body: (String) async throws -> Void) async throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("recordlog-tool-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: fixture, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try await body(copy)
    }

    private func json(_ outcome: ChildProcess.Outcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: outcome.output) as? [String: Any], "not a JSON object: \(outcome.outputText)")
    }

    @Test("recordlog compact shrinks the notes store, which then verifies clean and lists the same notes")
    func compact() async throws {
        try await withCopy(of: InspectFixtures.notesStore) { store in
            let before = try await run("notes", ["--store", store, "list", "--json"])
            #expect(before.status == 0)
            let compacted = try await run("recordlog", ["compact", store, "--retain", "0", "--json"])
            #expect(compacted.status == 0, "\(compacted.errorText)")
            let zones = try #require(try json(compacted)["zones"] as? [[String: Any]])
            let notes = try #require(zones.first { $0["zone"] as? String == "Notes" })
            #expect((notes["recordsRemoved"] as? Int ?? 0) > 0)
            #expect((notes["bytesAfter"] as? Int ?? .max) < (notes["bytesBefore"] as? Int ?? 0))

            #expect(try await run("log-inspect", ["verify", store]).status == 0)
            let summary = try await run("log-inspect", ["summary", store, "--json"])
            let summaryZones = try #require(try json(summary)["zones"] as? [[String: Any]])
            let compaction = try #require(summaryZones.first { $0["name"] as? String == "Notes" }?["compaction"] as? [String: Any])
            #expect((compaction["gaps"] as? Int ?? 0) > 0)
            #expect(compaction["logStartOffset"] as? Int != nil && compaction["dirtyRatio"] as? Double != nil)
            #expect(compaction["expiryOffset"] as? Int ?? 0 > 0, "the store's deletes were dropped")
            #expect(compaction["dropSequence"] as? Int == 2, "one compaction dropped deletes, and ended")
            #expect(try await run("log-inspect", ["summary", store]).outputText.contains("compaction: log start"))

            let after = try await run("notes", ["--store", store, "list", "--json"])
            #expect(after.outputText == before.outputText)
        }
    }

    @Test("recordlog repair does what Log.repair does and reports what it moved to lost+found/")
    func repair() async throws {
        try await withCopy(of: InspectFixtures.flippedStore) { byTool in
            try await withCopy(of: InspectFixtures.flippedStore) { inProcess in
                let expected = try Log.repair(directory: inProcess)
                let repair = try #require(expected.repairs.first)
                let outcome = try await run("recordlog", ["repair", byTool, "--json"])
                #expect(outcome.status == 0, "\(outcome.errorText)")
                let repairs = try #require(try json(outcome)["repairs"] as? [[String: Any]])
                #expect(repairs.count == expected.repairs.count)
                let reported = try #require(repairs.first)
                #expect(reported["zone"] as? String == repair.partition)
                #expect(reported["firstLostOffset"] as? Int == Int(repair.firstLostOffset))
                #expect(reported["bytesRemoved"] as? Int == Int(repair.bytesRemoved))
                let lost = try #require(reported["lostAndFound"] as? [String])
                #expect(lost.map { $0.replacingOccurrences(of: byTool, with: "") } == repair.quarantine.map {
                    $0.replacingOccurrences(of: inProcess, with: "")
                })
                for (mine, theirs) in zip(lost, repair.quarantine) {
                    #expect(FileManager.default.contents(atPath: mine) == FileManager.default.contents(atPath: theirs))
                }
                // Both stores are now the same, and sound.
                #expect(try await run("log-inspect", ["verify", byTool]).status == 0)
                #expect(try await run("recordlog", ["repair", byTool]).outputText.contains("nothing to repair"))
            }
        }
    }

    @Test("recordlog checkpoint writes the key index, so the next open replays nothing")
    func checkpoint() async throws {
        try await withCopy(of: InspectFixtures.notesStore) { store in
            let outcome = try await run("recordlog", ["checkpoint", store, "--json"])
            #expect(outcome.status == 0, "\(outcome.errorText)")
            #expect(FileManager.default.fileExists(atPath: store + "/snapshots/key-index.mapped"))
            let database = try await Database(directory: store)
            #expect(database.openReport.replayedEvents == 0)
            try database.close()
        }
    }

    @Test("recordlog --help teaches: every command, examples, exit statuses; a bad store fails with status 3")
    func help() async throws {
        let help = try await run("recordlog", ["--help"]).outputText
        for word in ["compact", "repair", "checkpoint", "Examples", "Exit status"] { #expect(help.contains(word)) }
        #expect(try await run("recordlog", ["compact", "/nonexistent/store"]).status == 3)
    }
}

extension RecordLogToolTests {
    @Test("recordlog refuses a directory that is not a store, and creates nothing in it")
    func notAStore() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("recordlog-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        for command in ["compact", "checkpoint"] {
            let outcome = try await run("recordlog", [command, empty])
            #expect(outcome.status == 3 && outcome.errorText.contains("not a RecordLog store"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty)
    }
}
