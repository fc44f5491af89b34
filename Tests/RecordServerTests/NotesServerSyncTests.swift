import Foundation
import TestSupport
import Testing

/// `notes sync --remote URL --database NAME --token TOKEN`: two notes stores sync through a
/// server; a wrong or missing token exits non-zero with a clear message and changes nothing.
@Suite struct NotesServerSyncTests {
    static func notes(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildProcess.Outcome {
        let executable = try #require(ChildProcess.builtExecutable("notes"), "the notes executable is built with the tests")
        return try await ChildProcess.run(executable, arguments, environment: environment)
    }

    /// Every file under `directory` with its bytes: equal snapshots mean nothing was written.
    static func snapshot(_ directory: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let path = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: directory + "/" + path) { files[path] = data }
        }
        return files
    }

    @Test(
        "two notes stores sync through the server; a wrong or missing token exits non-zero and changes nothing locally",
        arguments: ServerStorage.allCases)
    func twoStoresThroughServer(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let token = try #require(server.tokens["notes"])
        let database = server.name("notes")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("NotesServerSync-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let (a, b, c) = (scratch + "/A", scratch + "/B", scratch + "/C")
        let url = server.url.absoluteString

        #expect(try await Self.notes(["--store", a, "add", "From A"]).status == 0)
        let sentA = try await Self.notes(["--store", a, "sync", "--remote", url, "--database", database, "--token", token])
        #expect(sentA.status == 0, "\(sentA.errorText)")
        #expect(sentA.outputText.contains("synced: sent"))
        #expect(try await Self.notes(["--store", b, "add", "From B"]).status == 0)
        let syncB = try await Self.notes(["--store", b, "sync", "--remote", url, "--database", database], environment: ["RECORDLOG_TOKEN": token])
        #expect(syncB.status == 0, "\(syncB.errorText)")
        #expect(try await Self.notes(["--store", a, "sync", "--remote", url, "--database", database, "--token", token]).status == 0)
        for store in [a, b] {
            let list = try await Self.notes(["--store", store, "list", "--json"]).outputText
            #expect(list.contains("From A") && list.contains("From B"), "\(store): \(list)")
        }

        // A wrong token: exit 1, a message naming the refusal, not a byte written.
        #expect(try await Self.notes(["--store", b, "add", "Not yet synced"]).status == 0)
        let before = Self.snapshot(b)
        let wrong = try await Self.notes(["--store", b, "sync", "--remote", url, "--database", database, "--token", "wrong"])
        #expect(wrong.status == 1)
        #expect(wrong.errorText.contains("refused the token"), "\(wrong.errorText)")
        #expect(Self.snapshot(b) == before)
        // A token that starts with "-" (as one base64url token in 64 issued before tokens had
        // their prefix did) is the option's value, not an option: refused by the server, not a
        // usage error.
        let dashed = try await Self.notes(["--store", b, "sync", "--remote", url, "--database", database, "--token", "-" + token.dropFirst(3)])
        #expect(dashed.status == 1, "\(dashed.errorText)")
        #expect(dashed.errorText.contains("refused the token"), "\(dashed.errorText)")
        #expect(Self.snapshot(b) == before)
        // No token at all: a usage error, nothing written; a store that does not exist is not created.
        let missing = try await Self.notes(["--store", b, "sync", "--remote", url, "--database", database], environment: ["RECORDLOG_TOKEN": ""])
        #expect(missing.status != 0 && missing.errorText.contains("token"), "\(missing.errorText)")
        #expect(Self.snapshot(b) == before)
        let fresh = try await Self.notes(["--store", c, "sync", "--remote", url, "--database", database, "--token", "wrong"])
        #expect(fresh.status == 1)
        #expect(!FileManager.default.fileExists(atPath: c))
        try await server.stopAndRemove()
    }
}
