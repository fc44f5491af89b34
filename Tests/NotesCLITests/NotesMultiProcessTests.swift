import Foundation
import Notes
import NotesCLI
import RecordStore
import Synchronization
import Testing
import TestSupport

/// Many `notes` processes on one store, as its user meets them: writers take turns, readers open
/// beside them and see whole durable commits, and a read-only database follows another process's
/// commits into its subscriptions.
@Suite struct NotesMultiProcessTests {
    private static func notes() throws -> URL {
        guard let executable = ChildProcess.builtExecutable("notes") else {
            Issue.record("the notes executable must be built with the tests")
            throw CocoaError(.fileNoSuchFile)
        }
        return executable
    }

    @Test("any first command on a fresh store shows My Notes", arguments: [["folders"], ["list"], ["add-folder", "Work"]])
    func firstCommandShowsMyNotes(_ command: [String]) async throws {
        try await NotesCLITests.withStore { store in
            let first = try await NotesCLITests.run(["--store", store] + command)
            #expect(first.status == 0, "\(first.errors)")
            if command == ["folders"] { #expect(first.output.hasPrefix("My Notes\t0 notes")) }
            let folders = try await NotesCLITests.run(["--store", store, "folders"])
            #expect(folders.output.split(separator: "\n").contains { $0.hasPrefix("My Notes\t") })
        }
    }

    @Test("list without --folder lists every note, oldest first across folders, with its folder")
    func listMergesFoldersOldestFirst() async throws {
        try await NotesCLITests.withStore { store in
            #expect(try await NotesCLITests.run(["--store", store, "add", "one"]).status == 0)
            #expect(try await NotesCLITests.run(["--store", store, "add-folder", "Work"]).status == 0)
            #expect(try await NotesCLITests.run(["--store", store, "add", "--folder", "Work", "two"]).status == 0)
            #expect(try await NotesCLITests.run(["--store", store, "add", "three"]).status == 0)
            let lines = try await NotesCLITests.run(["--store", store, "list"]).output.split(separator: "\n")
            let shown = lines.map { $0.split(separator: "\t").dropFirst().joined(separator: " ") }
            #expect(shown == ["My Notes one", "Work two", "My Notes three"])
        }
    }

    @Test("read commands and the log tools work while another process holds the store open for writing")
    func readersBesideAnOpenWriter() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("notes-open-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let executable = try Self.notes()
        #expect(try await ChildProcess.run(executable, ["--store", store, "add", "Buy milk"]).status == 0)
        let writer = try await Database(directory: store)  // holds the lock throughout
        let list = try await ChildProcess.run(executable, ["--store", store, "list"])
        #expect(list.status == 0, "\(list.errorText)")
        #expect(list.outputText.contains("Buy milk"))
        #expect(try await ChildProcess.run(executable, ["--store", store, "folders"]).status == 0)
        if let inspect = ChildProcess.builtExecutable("log-inspect") {
            let summary = try await ChildProcess.run(inspect, ["summary", store])
            #expect(summary.status == 0, "\(summary.errorText)")
        }
        try writer.close()
    }

    @Test("eight notes add started at once all succeed, and every note is kept")
    func eightWritersAtOnce() async throws {
        let executable = try Self.notes()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("notes-eight-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let writers = try (0..<8).map { try ChildProcess.start(executable, ["--store", store, "add", "note \($0)"]) }
        for writer in writers { await ChildProcess.exit(of: writer) }
        #expect(writers.map(\.terminationStatus) == Array(repeating: 0, count: 8))
        let listed = try await ChildProcess.run(executable, ["--store", store, "list"])
        #expect(listed.status == 0, "\(listed.errorText)")
        let titles = Set(listed.outputText.split(separator: "\n").compactMap { $0.split(separator: "\t").last.map(String.init) })
        #expect(titles == Set((0..<8).map { "note \($0)" }))
    }

    @Test("a read-only database beside writer processes sees whole durable commits, and its subscription fires on theirs")
    func readerFollowsWriterProcesses() async throws {
        let executable = try Self.notes()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("notes-readers-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        #expect(try await ChildProcess.run(executable, ["--store", store, "add", "first"]).status == 0)
        // The subscription is the writer's to save; the reader finds it in the store.
        let writer = try await Database(directory: store)
        try await writer.save(Subscription(id: "notes", kind: .zone(RecordNotesManager.zone)))
        try writer.close()

        let reader = try await Database(directory: store, readOnly: true)
        let manager = try await RecordNotesManager(database: reader)
        var notifications = try reader.notifications(for: "notes").makeAsyncIterator()
        let folder = try #require(try await manager.fetchFolders().first)
        #expect(try await manager.fetchNotes(in: folder).map(\.content) == ["first"])

        let total = 10
        let acknowledged = Mutex(0)
        let failures = Mutex<[String]>([])
        let writers = Task {
            for index in 0..<total {
                let outcome = try? await ChildProcess.run(executable, ["--store", store, "add", "note \(index)"])
                if outcome?.status != 0 { failures.withLock { $0.append(outcome?.errorText ?? "did not start") } }
                acknowledged.withLock { $0 += 1 }
            }
        }
        var looks = 0
        while acknowledged.withLock({ $0 }) < total {
            let before = acknowledged.withLock { $0 }
            let seen = try await manager.fetchNotes(in: folder)  // refreshes first
            let after = acknowledged.withLock { $0 }
            // Whole commits, in order, each acknowledged or the one in flight: never beyond.
            #expect(seen.count - 1 >= before && seen.count - 1 <= after + 1, "saw \(seen.count - 1), acknowledged \(before)…\(after)")
            #expect(seen.map(\.content) == ["first"] + (0..<(seen.count - 1)).map { "note \($0)" })
            looks += 1
            try await Task.sleep(for: .milliseconds(3))  // pacing the looks, not timing them
        }
        await writers.value
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(looks > 0)
        try await reader.refresh()
        #expect(try await manager.fetchNotes(in: folder).count == total + 1)
        // The other processes' commits reached the subscription (delivered by the refreshes).
        let notification = await notifications.next()
        #expect(notification?.subscriptionID == "notes")
        #expect(notification?.zoneIDs == [RecordNotesManager.zone])
        await #expect(throws: (any Error).self) { _ = try await reader.createZone(ZoneID(zoneName: "Other")) }
        try reader.close()
    }
}
