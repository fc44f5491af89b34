import Foundation
import Testing

/// The built log-inspect binary, run once end to end: verify's exit statuses and dump's output.
@Suite struct InspectBinaryTests {
    /// log-inspect next to the test bundle (up to four levels up).
    static func binary() -> URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0...4 {
            let candidate = directory.appendingPathComponent("log-inspect")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let binary: URL = try #require(Self.binary(), "build log-inspect first (swift build --build-tests)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func endToEnd() throws {
        #expect(try run(["verify", InspectFixtures.notesStore]).status == 0)
        #expect(try run(["verify", InspectFixtures.tornStore]).status == 1)
        #expect(try run(["verify", InspectFixtures.flippedStore]).status == 2)
        #expect(try run(["verify", "/nonexistent/store"]).status == 3)
        let dump = try run(["dump", InspectFixtures.notesStore, "--json"])
        #expect(dump.status == 0)
        #expect(dump.output == InspectFixtures.golden("inspect-dump-notes-store.jsonl"))
    }
}
