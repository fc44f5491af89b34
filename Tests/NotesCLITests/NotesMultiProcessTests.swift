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

    @Test("a writing command waits --wait seconds for the writer that holds the store, then says so and writes nothing")
    func writerWaitsItsTurnThenGivesUp() async throws {
        let executable = try Self.notes()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("notes-wait-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        #expect(try await ChildProcess.run(executable, ["--store", store, "add", "first"]).status == 0)
        let writer = try await Database(directory: store)
        let refused = try await ChildProcess.run(executable, ["--store", store, "--wait", "0", "add", "second"])
        #expect(refused.status == 2)
        #expect(refused.errorText.contains("open for writing by another process"), "\(refused.errorText)")
        try writer.close()
        let listed = try await ChildProcess.run(executable, ["--store", store, "list"])
        #expect(listed.outputText.split(separator: "\n").compactMap { $0.split(separator: "\t").last.map(String.init) } == ["first"])
        #expect(try await ChildProcess.run(executable, ["--store", store, "add", "--wait", "5", "second"]).status == 0)
    }

    @Test("a negative --wait is a usage error that opens nothing")
    func negativeWaitIsRefused() async throws {
        let executable = try Self.notes()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("notes-negative-wait-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        for arguments in [["--store", store, "--wait=-1", "add", "x"], ["--store", store, "add", "--wait=-5", "x"]] {
            let refused = try await ChildProcess.run(executable, arguments)
            #expect(refused.status == 64, "\(arguments): \(refused.errorText)")
            #expect(refused.errorText.contains("--wait must be 0 or more seconds"), "\(refused.errorText)")
        }
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("eight notes add started at once all succeed, and every note is kept")
    func eightWritersAtOnce() async throws {
        let executable = try Self.notes()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("notes-eight-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let outcomes = try await withThrowingTaskGroup(of: ChildProcess.Outcome.self) { group in
            for index in 0..<8 { group.addTask { try await ChildProcess.run(executable, ["--store", store, "add", "note \(index)"]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.errorText)") }
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
    @Test("a long-lived read-only database delivers another process's commits to its subscription and views without a read")
    func watcherDeliversWithoutReads() async throws {
        let executable = try Self.notes()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("notes-watch-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        #expect(try await ChildProcess.run(executable, ["--store", store, "add", "first"]).status == 0)
        let writer = try await Database(directory: store)
        try await writer.save(Subscription(id: "notes", kind: .zone(RecordNotesManager.zone)))
        try writer.close()

        let reader = try await Database(directory: store, readOnly: true, refreshInterval: .milliseconds(20))
        let manager = try await RecordNotesManager(database: reader)
        let folder = try #require(try await manager.fetchFolders().first)
        var notifications = try reader.notifications(for: "notes").makeAsyncIterator()
        // A hang guard, not a timing: should nothing come, closing the reader ends the stream.
        let guardTask = Task {
            try await Task.sleep(for: .seconds(120))
            try reader.close()
        }
        defer { guardTask.cancel() }

        // Two other processes commit; this one neither reads nor refreshes from here on.
        for text in ["second", "third"] {
            #expect(try await ChildProcess.run(executable, ["--store", store, "add", text]).status == 0)
        }
        var contents: [String] = []
        while contents.count < 3 {
            let notification = await notifications.next()
            #expect(notification?.subscriptionID == "notes")
            guard notification != nil else { break }
            contents = await manager.notes.read { $0.notes(in: folder.id, newestFirst: false).map(\.content) }
        }
        #expect(contents == ["first", "second", "third"])
        // Closing stops the watcher: the subscription's stream ends (after what it had buffered).
        try reader.close()
        var buffered = 0
        while await notifications.next() != nil { buffered += 1 }
        #expect(buffered <= 2)
    }
    @Test("readers stay consistent while writer processes add, delete and compact (swap segments, drop deletes) under them")
    func readersBesideCompactingWriters() async throws {
        let executable = try Self.notes()
        let recordlog = try #require(ChildProcess.builtExecutable("recordlog"), "the recordlog executable must be built with the tests")
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("notes-compacting-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        #expect(try await ChildProcess.run(executable, ["--store", store, "add", "seed"]).status == 0)

        // The writers' script: each round adds three notes, deletes one, and compacts every zone
        // with no delete kept (every compaction rolls, so earlier rounds' segments are swapped).
        enum Step { case add(String), delete(String), compact }
        let rounds = 5
        let script: [Step] = (0..<rounds).flatMap { round -> [Step] in
            (0..<3).map { Step.add("r\(round)-\($0)") } + [.delete("r\(round)-1"), .compact]
        }
        // The notes after each add or delete, in order: what a reader may see.
        var states: [Set<String>] = [["seed"]]
        for step in script {
            switch step {
            case .add(let text): states.append(states[states.count - 1].union([text]))
            case .delete(let text): states.append(states[states.count - 1].subtracting([text]))
            case .compact: break
            }
        }
        let allStates = states
        let acknowledged = Mutex(0)  // adds and deletes done
        let finished = Mutex(false)
        let failures = Mutex<[String]>([])
        let writers = Task {
            var ids: [String: String] = [:]
            for step in script {
                do {
                    switch step {
                    case .add(let text):
                        let outcome = try await ChildProcess.run(executable, ["--store", store, "add", text])
                        if outcome.status != 0 { failures.withLock { $0.append(outcome.errorText) } }
                        ids[text] = outcome.outputText.split(separator: "\n").last.map(String.init)
                        acknowledged.withLock { $0 += 1 }
                    case .delete(let text):
                        let outcome = try await ChildProcess.run(executable, ["--store", store, "delete", ids[text] ?? "?"])
                        if outcome.status != 0 { failures.withLock { $0.append(outcome.errorText) } }
                        acknowledged.withLock { $0 += 1 }
                    case .compact:
                        let outcome = try await ChildProcess.run(recordlog, ["compact", store, "--retain", "0"])
                        if outcome.status != 0 { failures.withLock { $0.append(outcome.errorText) } }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            finished.withLock { $0 = true }
        }

        let reader = try await Database(directory: store, readOnly: true, refreshInterval: nil)
        let manager = try await RecordNotesManager(database: reader)
        let folder = try #require(try await manager.fetchFolders().first)
        var looks = 0
        while !finished.withLock({ $0 }) {
            let before = acknowledged.withLock { $0 }
            // The long-lived reader (it catches up across the swaps), and every fourth look a
            // fresh one (it opens while a swap may be half done).
            let seen = Set(try await manager.fetchNotes(in: folder).map(\.content))
            var fresh: Set<String>?
            if looks % 4 == 0 {
                let opened = try await Database(directory: store, readOnly: true, refreshInterval: nil)
                let freshManager = try await RecordNotesManager(database: opened)
                if let first = try await freshManager.fetchFolders().first {
                    fresh = Set(try await freshManager.fetchNotes(in: first).map(\.content))
                }
                try opened.close()
            }
            let after = acknowledged.withLock { $0 }
            let allowed = allStates[before...min(after + 1, allStates.count - 1)]
            #expect(allowed.contains(seen), "the reader saw \(seen.sorted()) with \(before)…\(after) steps acknowledged")
            if let fresh { #expect(allowed.contains(fresh), "a fresh reader saw \(fresh.sorted()) with \(before)…\(after) steps acknowledged") }
            looks += 1
            try await Task.sleep(for: .milliseconds(5))  // pacing the looks, not timing them
        }
        await writers.value
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(looks > 0)
        #expect(Set(try await manager.fetchNotes(in: folder).map(\.content)) == allStates[allStates.count - 1])
        try reader.close()
    }
}
