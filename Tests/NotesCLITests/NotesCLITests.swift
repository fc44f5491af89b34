import Foundation
import NotesCLI
import Testing
import TestSupport

/// The `notes` executable end to end: a real process on a real store.
@Suite struct NotesCLITests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        guard let executable = ChildProcess.builtExecutable("notes") else {
            Issue.record("the notes executable must be built with the tests")
            throw CocoaError(.fileNoSuchFile)
        }
        let outcome = try await ChildProcess.run(executable, arguments, environment: environment)
        return Run(status: outcome.status, output: outcome.outputText, errors: outcome.errorText)
    }

    static func withStore(_ body: (String) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notes-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await body(path)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(text.utf8))
    }

    @Test("add, list, edit, delete and folders work end to end, with JSON output")
    func endToEnd() async throws {
        try await Self.withStore { store in
            let added = try await Self.run(["--store", store, "add", "Buy milk"])
            #expect(added.status == 0, "\(added.errors)")
            let noteID = try #require(added.output.split(separator: "\n").last.map(String.init))

            #expect(try await Self.run(["--store", store, "add-folder", "Work"]).status == 0)
            let long = "Call Anna about the quarterly report"
            #expect(try await Self.run(["--store", store, "add", "--folder", "Work", long]).status == 0)

            let folders = try Self.decode([FolderJSON].self, try await Self.run(["--store", store, "folders", "--json"]).output)
            #expect(folders.map(\.name) == ["My Notes", "Work"])
            #expect(folders.allSatisfy { $0.createdAt != nil && $0.modifiedAt != nil })

            let notes = try Self.decode([NoteJSON].self, try await Self.run(["--store", store, "list", "--json"]).output)
            #expect(notes.map(\.content) == ["Buy milk", long])
            #expect(notes.map(\.title) == ["Buy milk", "Call Anna about the ..."])
            #expect(notes.first?.id == noteID)
            #expect(notes.last?.folderID == folders.last?.id)

            #expect(try await Self.run(["--store", store, "edit", noteID, "Buy oat milk"]).status == 0)
            let work = try Self.decode([NoteJSON].self, try await Self.run(["list", "--store", store, "--folder", "My Notes", "--json"]).output)
            #expect(work.map(\.content) == ["Buy oat milk"])

            #expect(try await Self.run(["--store", store, "delete", noteID]).status == 0)
            #expect(try await Self.run(["--store", store, "delete-folder", "Work"]).status == 0)
            #expect(try Self.decode([NoteJSON].self, try await Self.run(["--store", store, "list", "--json"]).output).isEmpty)
        }
    }

    @Test("an unknown id or folder is a message on stderr, a non-zero exit, and nothing written")
    func refusals() async throws {
        try await Self.withStore { store in
            #expect(try await Self.run(["--store", store, "add", "keep me"]).status == 0)
            let before = try await Self.run(["--store", store, "list", "--json"]).output
            for arguments in [["delete", "no-such-id"], ["edit", "no-such-id", "x"], ["add", "--folder", "Nope", "x"], ["delete-folder", "Nope"], ["list", "--folder", "Nope"]] {
                let run = try await Self.run(["--store", store] + arguments)
                #expect(run.status != 0, "\(arguments)")
                #expect(run.errors.hasPrefix("notes: "), "\(arguments): \(run.errors)")
                #expect(run.output.isEmpty)
            }
            #expect(try await Self.run(["--store", store, "list", "--json"]).output == before)
        }
    }

    @Test("the store defaults to $NOTES_STORE")
    func environmentStore() async throws {
        try await Self.withStore { store in
            #expect(try await Self.run(["add", "from the environment"], environment: ["NOTES_STORE": store]).status == 0)
            let notes = try Self.decode([NoteJSON].self, try await Self.run(["--store", store, "list", "--json"]).output)
            #expect(notes.map(\.content) == ["from the environment"])
        }
        #expect(NotesStoreLocation.resolve(option: nil, environment: ["HOME": "/home/a"]) == "/home/a/.local/share/recordlog-notes")
        #expect(NotesStoreLocation.resolve(option: nil, environment: ["XDG_DATA_HOME": "/x"]) == "/x/recordlog-notes")
        #expect(NotesStoreLocation.resolve(option: "/o", environment: ["NOTES_STORE": "/e"]) == "/o")
    }

    @Test("the default folder is made once, also across two processes")
    func defaultFolderAcrossProcesses() async throws {
        try await Self.withStore { store in
            #expect(try await Self.run(["--store", store, "add", "one"]).status == 0)
            #expect(try await Self.run(["--store", store, "add", "two"]).status == 0)
            let folders = try Self.decode([FolderJSON].self, try await Self.run(["--store", store, "folders", "--json"]).output)
            #expect(folders.map(\.name) == ["My Notes"])
        }
    }
}
