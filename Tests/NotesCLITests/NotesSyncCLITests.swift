import Foundation
import NotesCLI
import Testing
import TestSupport

/// `notes sync --remote DIR`: two notes stores, real processes, one hub store between them.
@Suite struct NotesSyncCLITests {
    @Test("two notes stores syncing through a hub end with the same folders and notes; an edit on each side of one note merges")
    func twoStoresThroughAHub() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("notes-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b, hub) = (root.appendingPathComponent("a").path, root.appendingPathComponent("b").path, root.appendingPathComponent("hub").path)
        // Each child is waited for off the cooperative pool (ChildProcess.run), which a
        // synchronous wait would hold for the whole test.
        func notes(_ arguments: String...) async throws -> NotesCLITests.Run {
            let executable = try #require(ChildProcess.builtExecutable("notes"), "the notes executable must be built with the tests")
            let outcome = try await ChildProcess.run(executable, Array(arguments))
            let run = NotesCLITests.Run(status: outcome.status, output: outcome.outputText, errors: outcome.errorText)
            #expect(run.status == 0, "notes \(arguments.joined(separator: " ")): \(run.errors)")
            return run
        }
        let fromA = try #require(try await notes("--store", a, "add", "From A").output.split(separator: "\n").last.map(String.init))
        _ = try await notes("--store", b, "add-folder", "Work")
        _ = try await notes("--store", b, "add", "--folder", "Work", "From B")
        #expect(try await notes("--store", a, "sync", "--remote", hub).output.hasPrefix("synced: sent"))
        _ = try await notes("--store", b, "sync", "--remote", hub)
        _ = try await notes("--store", a, "sync", "--remote", hub)

        // Both edit A's note offline, B after A: B's is the later edit, and it wins on both —
        // though A's reached the hub last (SYNC.md, "Merges").
        _ = try await notes("--store", a, "edit", fromA, "Edited on A")
        _ = try await notes("--store", b, "edit", fromA, "Edited on B")
        _ = try await notes("--store", a, "sync", "--remote", hub)
        _ = try await notes("--store", b, "sync", "--remote", hub)
        _ = try await notes("--store", a, "sync", "--remote", hub)

        let listA = try NotesCLITests.decode([NoteJSON].self, try await notes("--store", a, "list", "--json").output)
        let listB = try NotesCLITests.decode([NoteJSON].self, try await notes("--store", b, "list", "--json").output)
        #expect(Set(listA.map(\.id)) == Set(listB.map(\.id)))
        #expect(listA.count == 2)
        #expect(Dictionary(uniqueKeysWithValues: listA.map { ($0.id, $0.content) }) == Dictionary(uniqueKeysWithValues: listB.map { ($0.id, $0.content) }))
        #expect(listA.first { $0.id == fromA }?.content == "Edited on B")
        let foldersA = try NotesCLITests.decode([FolderJSON].self, try await notes("--store", a, "folders", "--json").output)
        #expect(foldersA.map(\.name) == ["My Notes", "Work"])
    }
}
