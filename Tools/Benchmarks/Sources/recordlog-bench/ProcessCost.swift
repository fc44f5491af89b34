import Foundation
import GRDB
import Notes
import RecordStore

/// `--process-cost`: the two workloads of many processes on one store, each side in real
/// processes (this binary run again as a child, `--process-child`), SQLite in WAL mode with a
/// busy timeout as the peer:
/// - **W11**, a reader process's open and first folder fetch while a writer process commits one
///   note at a time without pause (ours: a read-only `Database` beside the writer; SQLite: a
///   read-only pool beside the writer's). Median of `rounds` fresh reader processes per side,
///   the sides taking turns; timed inside the reader (as W6), so process start-up is not in it.
/// - **W12**, `processes` processes started at once, each committing `commits` single notes and
///   exiting (ours: each opens for writing, waiting its turn for the store's lock, commits and
///   closes, as `notes add` does; SQLite: each opens its pool and writes, waiting on the busy
///   timeout). Wall time from the first start to the last exit, process start-ups included on
///   both sides; the best and median of `rounds` runs on fresh copies.
/// Both start from a store of `records` notes (ours checkpointed, as a closed store is).
enum ProcessCost {
    static let writerLockTimeout: Duration = .seconds(300)
    static let sqliteBusySeconds: TimeInterval = 300

    static func run(directory: String, records: Int, rounds: Int, processes: Int, commits: Int) async throws -> Report {
        let load = loadAverage()
        var results: [String: Outcome] = [:]

        // W11.
        let oursPath = directory + "/w11-ours", sqlitePath = directory + "/w11.sqlite"
        try await preload(ours: oursPath, sqlite: sqlitePath, records: records)
        var opens: [String: [Double]] = ["ours": [], "sqlite": []]
        var readerCounts: [String: Int] = [:]
        var databaseOpens: [Double] = []
        var writerCommits: [String: Int] = [:]
        /// One reader process's open + fetch: seconds, notes found, our database open alone.
        func readerRun(_ side: String, _ path: String) throws -> (seconds: Double, count: Int, opening: Double) {
            let reader = try Child(["reader", side, path])
            let parts = (reader.line() ?? "").split(separator: " ")
            try reader.wait()
            guard parts.count == 3, let seconds = Double(parts[0]), let count = Int(parts[1]), let opening = Double(parts[2]) else {
                throw PeerError("the \(side) reader printed no timing")
            }
            return (seconds, count, opening)
        }
        // The same readers with no writer beside them first: what the writer's presence costs.
        var alone: [String: [Double]] = [:]
        for _ in 0..<rounds {
            for side in ["ours", "sqlite"] {
                alone[side, default: []].append(try readerRun(side, side == "ours" ? oursPath : sqlitePath).seconds)
            }
        }
        for side in ["ours", "sqlite"] {
            let path = side == "ours" ? oursPath : sqlitePath
            let writer = try Child(["writer", side, path, String(records)])
            // The writer has committed at least once: it runs.
            guard writer.line() == "ready" else { throw PeerError("the \(side) writer did not start") }
            for _ in 0..<rounds {
                let (seconds, count, opening) = try readerRun(side, path)
                opens[side, default: []].append(seconds)
                if side == "ours" { databaseOpens.append(opening) }
                readerCounts[side] = count
            }
            writer.stop()
            writerCommits[side] = Int(writer.line() ?? "") ?? 0
            try? writer.wait()
        }
        let medianOurs = Measure.median(opens["ours"] ?? []), medianSQLite = Measure.median(opens["sqlite"] ?? [])
        results["W11"] = .cost(
            ours: medianOurs * 1000, peers: ["sqlite": medianSQLite * 1000], unit: "ms",
            note: "a reader process's open + first fetch of a folder (\(readerCounts["ours"] ?? 0) notes ours, \(readerCounts["sqlite"] ?? 0) SQLite) beside a writer process committing one note at a time; "
                + "median of \(rounds) reader processes per side; each in ms: ours "
                + (opens["ours"] ?? []).map { String(format: "%.0f", $0 * 1000) }.joined(separator: "/") + ", sqlite "
                + (opens["sqlite"] ?? []).map { String(format: "%.0f", $0 * 1000) }.joined(separator: "/")
                + String(format: "; ours: median %.0f ms opening the database (key index, the tail after the checkpoint), the rest the Notes views and the fetch", Measure.median(databaseOpens) * 1000)
                + String(format: "; with no writer beside them (run first): ours %.0f ms, sqlite %.0f ms (median)",
                    Measure.median(alone["ours"] ?? []) * 1000, Measure.median(alone["sqlite"] ?? []) * 1000)
                + "; the writers committed \(writerCommits["ours"] ?? 0) (ours) and \(writerCommits["sqlite"] ?? 0) (sqlite) notes meanwhile")

        // W12: the sides take turns, each run on a fresh copy of the preloaded store.
        let baseOurs = directory + "/w12-ours", baseSQLite = directory + "/w12.sqlite"
        try await preload(ours: baseOurs, sqlite: baseSQLite, records: records)
        var walls: [String: [Double]] = ["ours": [], "sqlite": []]
        var totals: [String: Int] = [:]
        for round in 0..<rounds {
            for side in round % 2 == 0 ? ["ours", "sqlite"] : ["sqlite", "ours"] {
                let path = directory + "/w12-run-\(round)" + (side == "ours" ? "-ours" : ".sqlite")
                try copy(side == "ours" ? baseOurs : baseSQLite, to: path, sqlite: side == "sqlite")
                let start = ContinuousClock.now
                let children = try (0..<processes).map { index in
                    try Child(["commits", side, path, String(records + index * commits), String(commits)])
                }
                for child in children { try child.wait() }
                let elapsed = ContinuousClock.now - start
                walls[side, default: []].append(Measure.seconds(of: elapsed))
                totals[side] = try await count(side, path: path)
                try? FileManager.default.removeItem(atPath: path)
                for suffix in ["-wal", "-shm"] where side == "sqlite" { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        }
        let expected = records + processes * commits
        for (side, total) in totals where total != expected {
            throw PeerError("\(side) holds \(total) notes after W12, not \(expected)")
        }
        let wallOurs = Measure.median(walls["ours"] ?? []), wallSQLite = Measure.median(walls["sqlite"] ?? [])
        results["W12"] = .cost(
            ours: wallOurs * 1000, peers: ["sqlite": wallSQLite * 1000], unit: "ms",
            note: "\(processes) processes started at once, \(commits) single-note commits each (ours: each waits its turn for the store's lock; "
                + "SQLite WAL: a busy timeout), wall time to the last exit, median of \(rounds) runs; each in ms: ours "
                + (walls["ours"] ?? []).map { String(format: "%.0f", $0 * 1000) }.joined(separator: "/") + ", sqlite "
                + (walls["sqlite"] ?? []).map { String(format: "%.0f", $0 * 1000) }.joined(separator: "/")
                + "; all \(expected) notes there on both sides")
        var machine = Measure.machine()
        machine["loadAverage"] = "\(load) at the start, \(loadAverage()) at the end"
        return Report(
            machine: machine, parameters: ["records": records, "rounds": rounds, "processes": processes, "commits": commits],
            workloads: results)
    }

    /// A store of `records` notes on each side, closed (ours with its checkpoint).
    private static func preload(ours oursPath: String, sqlite sqlitePath: String, records: Int) async throws {
        let ours = try await Ours(path: oursPath)
        let sqlite = try await SQLitePeer(path: sqlitePath)
        for start in stride(from: 0, to: records, by: 1000) {
            let rows = (start..<min(start + 1000, records)).map(Dataset.row)
            try await ours.saveCommit(rows)
            try await sqlite.saveCommit(rows)
        }
        try ours.database.checkpoint()
        try ours.close()
        try sqlite.close()
    }

    private static func copy(_ source: String, to destination: String, sqlite: Bool) throws {
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        if sqlite {
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: destination + suffix)
            }
        }
    }

    /// The notes a side's store holds.
    private static func count(_ side: String, path: String) async throws -> Int {
        if side == "ours" {
            let database = try await Database(directory: path, readOnly: true)
            defer { try? database.close() }
            return try await database.fetchZoneChanges(in: Ours.zone, since: nil, resultsLimit: 0, desiredKeys: [])
                .changedRecords.filter { $0.recordType == "Note" }.count
        }
        let pool = try readOnlyPool(path)
        defer { try? pool.close() }
        return try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") ?? 0 }
    }

    static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }

    // MARK: - The child processes

    /// `--process-child ROLE SIDE PATH …`, run by `run` in a process of its own.
    static func child(_ arguments: [String]) async throws {
        guard arguments.count >= 3 else { throw PeerError("--process-child ROLE SIDE PATH …") }
        let (role, side, path) = (arguments[0], arguments[1], arguments[2])
        switch (role, side) {
        case ("writer", "ours"):
            // Commits until the parent closes its stdin, then prints how many.
            let database = try await Database(directory: path, lockTimeout: writerLockTimeout)
            let ours = Ours(path: path, database: database, manager: nil)
            var next = Int(arguments[3]) ?? 0
            let stop = StopSignal()
            try await ours.saveCommit([Dataset.row(next)])
            next += 1
            say("ready")
            while !stop.requested {
                try await ours.saveCommit([Dataset.row(next)])
                next += 1
            }
            try database.close()
            say("\(next - (Int(arguments[3]) ?? 0))")
        case ("writer", "sqlite"):
            let pool = try writerPool(path)
            var next = Int(arguments[3]) ?? 0
            let stop = StopSignal()
            try await insert(pool, Dataset.row(next))
            next += 1
            say("ready")
            while !stop.requested {
                try await insert(pool, Dataset.row(next))
                next += 1
            }
            try pool.close()
            say("\(next - (Int(arguments[3]) ?? 0))")
        case ("reader", "ours"):
            var found = 0
            var opening = 0.0
            let seconds = try await Measure.seconds {
                var database: RecordStore.Database?
                opening = try await Measure.seconds { database = try await Database(directory: path, readOnly: true) }
                guard let database else { return }
                let ours = Ours(path: path, database: database, manager: nil)
                try await ours.openViews()
                found = try await ours.fetchFolder(0)
            }
            say("\(seconds) \(found) \(opening)")
        case ("reader", "sqlite"):
            var found = 0
            let seconds = try await Measure.seconds {
                let pool = try readOnlyPool(path)
                found = try await SQLitePeer(path: path, pool: pool).fetchFolder(0)
            }
            say("\(seconds) \(found) 0")
        case ("commits", "ours"):
            let first = Int(arguments[3]) ?? 0, count = Int(arguments[4]) ?? 0
            let database = try await Database(directory: path, lockTimeout: writerLockTimeout)
            let ours = Ours(path: path, database: database, manager: nil)
            for index in first..<(first + count) { try await ours.saveCommit([Dataset.row(index)]) }
            try database.close()
        case ("commits", "sqlite"):
            let first = Int(arguments[3]) ?? 0, count = Int(arguments[4]) ?? 0
            let pool = try writerPool(path)
            for index in first..<(first + count) { try await insert(pool, Dataset.row(index)) }
            try pool.close()
        default:
            throw PeerError("--process-child takes writer, reader or commits, and ours or sqlite")
        }
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// SQLite's writer in a process of its own: WAL, synchronous=FULL, and a busy timeout, so
    /// that writers in other processes wait for each other instead of failing.
    private static func writerPool(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(sqliteBusySeconds)
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return pool
    }

    private static func readOnlyPool(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(sqliteBusySeconds)
        return try DatabasePool(path: path, configuration: configuration)
    }

    /// One note, one transaction, as `SQLitePeer.saveSingly` writes it.
    private static func insert(_ pool: DatabasePool, _ row: Dataset.Row) async throws {
        try await pool.write { db in
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            try db.execute(
                sql: "INSERT OR REPLACE INTO note (zone, name, folder, content, title, created, modified, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: ["Notes", row.name, row.folder, row.content, row.title, row.created, now, 0])
        }
    }
}

/// This binary run again with `--process-child …`, its stdout a pipe the parent reads by line.
/// The parent's waits block its thread: the benchmark's parent does nothing else meanwhile.
private final class Child {
    let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private var buffer: [UInt8] = []

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--process-child"] + arguments
        process.standardOutput = output
        process.standardInput = input
        try process.run()
    }

    /// The child's next line of output; nil at its end.
    func line() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let text = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return text
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return nil }
            buffer += data
        }
    }

    /// Asks a writer child to stop (closes its stdin).
    func stop() { try? input.fileHandleForWriting.close() }

    func wait() throws {
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PeerError("child \(process.arguments ?? []) exited with \(process.terminationStatus)")
        }
    }
}

/// Set once the parent closes the child's stdin: read on a thread of its own, which blocks.
private final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    init() {
        Thread { [self] in
            _ = FileHandle.standardInput.readDataToEndOfFile()
            lock.withLock { stopped = true }
        }.start()
    }

    var requested: Bool { lock.withLock { stopped } }
}
