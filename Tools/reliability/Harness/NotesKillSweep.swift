import Foundation
import TestSupport

/// The `notes` kill sweep: the Notes app's own processes on one store, as its user runs them. Each
/// round starts one writer (`notes add`, `edit`, `delete`, `add-folder`, `delete-folder` — the
/// last a commit of many records) and, at the same moment, a reader (`notes list --json`); most
/// writers are killed with SIGKILL at a point swept across a writer's life (opening and waiting
/// for the lock, recovering, committing, syncing, closing and checkpointing), the others run to
/// the end. After each round, with no writer left, a reader looks again, and the next round's
/// writer recovers the store. Every look must show the notes before the round's commit or after
/// it — never part of it (a folder deleted with only some of its notes), never a commit that a
/// killed writer had not made durable (a reader saw it, the store then lost it) — and an
/// acknowledged commit (exit status 0) must be there from then on.
package struct NotesKillSweep {
    /// One round's writer and what happened to it.
    package struct Round: Sendable, CustomStringConvertible {
        package var command: [String]
        /// The SIGKILL's delay after the writer started; nil: it ran to the end.
        package var killAfter: Duration?
        /// Whether the writer died of the SIGKILL (it may have finished first).
        package var killed: Bool
        /// Whether a reader after the round saw its change (a command that changes no note,
        /// `add-folder`, never counts; a killed writer's commit may also turn up later, kept by
        /// the next writer's recovery).
        package var committed: Bool

        package var description: String {
            let kill = killAfter.map { "killed after \($0)" + (killed ? "" : " (finished first)") } ?? "not killed"
            return "\(command.joined(separator: " ")): \(kill), \(committed ? "committed" : "not committed")"
        }
    }

    /// A note as the sweep compares them: its folder's name and its text (every text is unique).
    package struct Item: Hashable, Sendable, CustomStringConvertible {
        package var folder: String
        package var content: String
        package var description: String { "\(folder)/\(content)" }
    }

    package let notes: URL
    package let store: String
    /// The notes and folders the store holds after the last round.
    package private(set) var items: Set<Item> = []
    package private(set) var folders: [String: String] = [:]  // name → id
    package private(set) var ids: [Item: String] = [:]
    /// How long a writer takes when left alone (the median of the rounds not killed): the span
    /// the kill points are swept across.
    package private(set) var writerLifetime: Duration = .milliseconds(300)
    private var lifetimes: [Duration] = []
    private var generator: SplitMix
    private var roundNumber = 0
    /// What the killed writers whose commits no reader saw would change, in order.
    private var pending: [Change] = []

    /// A command's change to the notes.
    package typealias Change = @Sendable (Set<Item>) -> Set<Item>

    package init(notes: URL, store: String, seed: UInt64) {
        self.notes = notes
        self.store = store
        generator = SplitMix(seed: seed)
    }

    /// Makes the store (a first note, unkilled) and reads it.
    package mutating func start() async throws {
        let first = try await Self.run(notes, ["--store", store, "add", "first"])
        guard first.status == 0 else { throw HarnessError.child("the first notes add failed: \(first.errorText)") }
        try await look()
    }

    /// Runs one round; `kill` at `fraction` of a writer's lifetime (0…1), or not at all when nil.
    package mutating func round(killAt fraction: Double?) async throws -> Round {
        roundNumber += 1
        let (command, expected) = nextCommand()
        let before = Set(try await listed())
        let killAfter = fraction.map { writerLifetime * $0 }
        let started = ContinuousClock.now
        let writer = try Self.start(notes, ["--store", store] + command)
        let killer = killAfter.map { delay in Self.kill(writer, after: delay) }
        // A reader beside the writer, started with it.
        let reader = try await Self.run(notes, ["--store", store, "list", "--json"])
        await Self.exit(of: writer)
        killer?.cancel()
        let killed = writer.terminationReason == .uncaughtSignal && writer.terminationStatus == SIGKILL
        if killAfter == nil || !killed {
            guard writer.terminationStatus == 0 else {
                throw HarnessError.child("\(command) exited with \(writer.terminationStatus) without being killed")
            }
            if killAfter == nil { lifetimes.append(ContinuousClock.now - started) }
        }
        // A killed writer's commit that no reader saw may still be whole in the log beyond the
        // durable mark: the next writer's recovery keeps it (and makes it durable) or cuts it.
        // So the state before this round's commit is `before` with any of those applied.
        let bases = Self.states(before, applying: pending)
        let afters = Set(bases.map(expected))
        let allowed = Set(bases).union(afters)
        guard reader.status == 0 else { throw HarnessError.child("a reader beside \(command) failed: \(reader.errorText)") }
        let seenBeside = Set(try Self.items(reader.output, folders: folders))
        // With no writer left: the store as the next reader finds it.
        let seenAfter = Set(try await listed())
        try check(seenBeside, allowed: allowed, command: command, what: "a reader beside the writer")
        try check(seenAfter, allowed: allowed, command: command, what: "a reader after the writer")
        let visible = afters.contains(seenAfter) && !bases.contains(seenAfter)
        if !killed || (afters.contains(seenBeside) && !bases.contains(seenBeside)), !afters.contains(seenAfter) {
            throw HarnessError.notesSweep(round: roundNumber, "\(command): \(killed ? "seen by a reader" : "acknowledged"), then lost")
        }
        if !killed {
            pending = []  // its open recovered the store: every earlier commit is kept or cut for good
        } else if !visible {
            pending.append(expected)
        }
        let committed = visible
        try await look()
        if !lifetimes.isEmpty { writerLifetime = lifetimes.sorted()[lifetimes.count / 2] }
        return Round(command: command, killAfter: killAfter, killed: killed, committed: committed)
    }

    /// The end of a sweep: one more writer recovers the store, and `verify` finds it clean.
    package mutating func finish() async throws {
        let outcome = try await Self.run(notes, ["--store", store, "add", "last"])
        guard outcome.status == 0 else { throw HarnessError.child("the last notes add failed: \(outcome.errorText)") }
        let last: Change = { $0.union([Item(folder: "My Notes", content: "last")]) }
        let expected = Self.states(items, applying: pending).map(last)
        try await look()
        guard expected.contains(items) else {
            throw HarnessError.notesSweep(round: roundNumber, "after the last writer the notes are \(items.sorted { $0.content < $1.content })")
        }
        pending = []
        try HarnessStore.verifyClean(store)
    }

    private func check(_ seen: Set<Item>, allowed: Set<Set<Item>>, command: [String], what: String) throws {
        guard allowed.contains(seen) else {
            throw HarnessError.notesSweep(
                round: roundNumber,
                "\(what) of \(command) saw \(seen.sorted { $0.content < $1.content }), none of the \(allowed.count) states before or after the commit")
        }
    }

    /// `state` with every order-keeping choice of `changes` applied (each change is idempotent).
    private static func states(_ state: Set<Item>, applying changes: [Change]) -> [Set<Item>] {
        changes.reduce([state]) { states, change in states + states.map(change) }
    }

    /// The next writer's command, and the notes it leaves given the notes before it.
    private mutating func nextCommand() -> (command: [String], expected: Change) {
        let text = "n\(roundNumber)"
        let pick = generator.next() % 10
        let existing = items.sorted { $0.content < $1.content }
        if folders["Work"] == nil {
            return (["add-folder", "Work"], { $0 })
        }
        switch pick {
        case 0...3:
            return (["add", text], { $0.union([Item(folder: "My Notes", content: text)]) })
        case 4...5:
            return (["add", "--folder", "Work", text], { $0.union([Item(folder: "Work", content: text)]) })
        case 6...7 where !existing.isEmpty:
            let item = existing[Int(generator.next() % UInt64(existing.count))]
            let edited = Item(folder: item.folder, content: "e\(roundNumber)")
            return (["edit", ids[item] ?? "?", edited.content], { $0.subtracting([item]).union([edited]) })
        case 8 where !existing.isEmpty:
            let item = existing[Int(generator.next() % UInt64(existing.count))]
            return (["delete", ids[item] ?? "?"], { $0.subtracting([item]) })
        case 9 where existing.filter({ $0.folder == "Work" }).count >= 2:
            return (["delete-folder", "Work"], { $0.filter { $0.folder != "Work" } })
        default:
            return (["add", text], { $0.union([Item(folder: "My Notes", content: text)]) })
        }
    }

    /// Reads folders and notes with no writer running, as the model to go on from.
    private mutating func look() async throws {
        let foldersOutcome = try await Self.run(notes, ["--store", store, "folders", "--json"])
        guard foldersOutcome.status == 0 else { throw HarnessError.child("notes folders failed: \(foldersOutcome.errorText)") }
        let listedFolders = try JSONDecoder().decode([FolderEntry].self, from: foldersOutcome.output)
        folders = Dictionary(listedFolders.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
        let listOutcome = try await Self.run(notes, ["--store", store, "list", "--json"])
        guard listOutcome.status == 0 else { throw HarnessError.child("notes list failed: \(listOutcome.errorText)") }
        let entries = try JSONDecoder().decode([NoteEntry].self, from: listOutcome.output)
        let names = Dictionary(listedFolders.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        ids = Dictionary(entries.map { (Item(folder: names[$0.folderID] ?? $0.folderID, content: $0.content), $0.id) }, uniquingKeysWith: { first, _ in first })
        items = Set(ids.keys)
    }

    /// The notes a reader lists now, named by the folders known.
    private func listed() async throws -> [Item] {
        let outcome = try await Self.run(notes, ["--store", store, "list", "--json"])
        guard outcome.status == 0 else { throw HarnessError.child("notes list failed: \(outcome.errorText)") }
        return try Self.items(outcome.output, folders: folders)
    }

    private static func items(_ output: Data, folders: [String: String]) throws -> [Item] {
        let names = Dictionary(folders.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        return try JSONDecoder().decode([NoteEntry].self, from: output).map { Item(folder: names[$0.folderID] ?? $0.folderID, content: $0.content) }
    }

    private struct NoteEntry: Decodable {
        var id: String
        var folderID: String
        var content: String
    }

    private struct FolderEntry: Decodable {
        var id: String
        var name: String
    }

    // MARK: - Processes, waited for off the cooperative pool

    private static func run(_ executable: URL, _ arguments: [String]) async throws -> ChildProcess.Outcome {
        try await ChildProcess.run(executable, arguments)
    }

    private static func start(_ executable: URL, _ arguments: [String]) throws -> Process {
        try ChildProcess.start(executable, arguments)
    }

    private static func exit(of process: Process) async {
        await ChildProcess.exit(of: process)
    }

    /// Sends SIGKILL to `process` after `delay`, on a dispatch queue (the kill point of a sweep,
    /// not a timing anything depends on), unless cancelled first.
    private static func kill(_ process: Process, after delay: Duration) -> DispatchWorkItem {
        let pid = process.processIdentifier
        let work = DispatchWorkItem { if process.isRunning { sendKill(pid) } }
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: work)
        return work
    }
}

private func sendKill(_ pid: Int32) {
    kill(pid, SIGKILL)
}

/// SplitMix64: the sweep's choices from its seed.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
