import Foundation
import RecordLog

// recordlog-bench [--quick] [--json FILE] [--dir DIR] [--keep] [--process-cost [--records N] [--rounds N]] [--rewrite [--records N]] [--records N] [--until W1|W2|W3|W4|W5] [--repeat-w4 N] [--commit-cost [--preload N]] [--replay-cost DIR [--rounds N] [--singles N]] [--batch-cost [--no-views] [--fsync]] [--changes-cost DIR [--last N] [--rounds N] [--notes-only] [--thrash-mb N]] [--sync-cost [--records N]] [--encode-cost [--records N] [--rounds N]]
// Runs every workload through RecordLog and through SQLite (GRDB), RocksDB and LMDB, in this one
// process, and prints ours, each peer's, and the ratios against SQLite and against the best peer
// (> 1 means RecordLog is better).

@main
enum Bench {
    static func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

    @MainActor
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let quick = arguments.contains("--quick")
        func value(after flag: String) -> String? {
            guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
            return arguments[index + 1]
        }
        let jsonPath = value(after: "--json")
        let workDirectory = value(after: "--dir") ?? FileManager.default.temporaryDirectory.appendingPathComponent("recordlog-bench-\(UUID().uuidString)").path

        // A child process that opens a store and fetches one folder: W6 and W9 are measured in
        // a fresh process, whose memory holds nothing but that store.
        if let side = value(after: "--open-only"), let path = value(after: "--path") {
            // Prints: total seconds, total RSS added, and the part of both spent opening the
            // database alone (ours: the key index; the rest is the Notes views and the fetch).
            let before = Measure.status("VmRSS")
            var databaseSeconds = 0.0, databaseRSS = 0
            let seconds: Double, added: Int
            if side == "ours" {
                var ours: Ours?
                seconds = try await Measure.seconds {
                    let database = try await Measure.seconds { ours = try await Ours.open(path: path, viewsToo: false) }
                    databaseSeconds = database
                    databaseRSS = Measure.status("VmRSS") - before
                    try await ours?.openViews()
                    _ = try await ours?.fetchFolder(0)
                }
                // Measured while the store is still open: once released, its memory may go back
                // to the system (and did, for memory a second thread allocated).
                added = withExtendedLifetime(ours) { Measure.status("VmRSS") - before }
            } else {
                var peer: (any NotesPeer)?
                seconds = try await Measure.seconds {
                    peer = try openExisting(side, path: path)
                    _ = try await peer?.fetchFolder(0)
                }
                added = withExtendedLifetime(peer) { Measure.status("VmRSS") - before }
            }
            print("\(seconds) \(added) \(databaseSeconds) \(databaseRSS)")
            return
        }

        // W11 and W12's processes (`ProcessCost`), and the two workloads themselves.
        if let index = arguments.firstIndex(of: "--process-child") {
            try await ProcessCost.child(Array(arguments[(index + 1)...]))
            return
        }
        if arguments.contains("--process-cost") {
            try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: workDirectory) }
            let report = try await ProcessCost.run(
                directory: workDirectory, records: value(after: "--records").flatMap(Int.init) ?? (quick ? 10_000 : 100_000),
                rounds: value(after: "--rounds").flatMap(Int.init) ?? 5, processes: 8, commits: 100)
            try Self.output(report, json: jsonPath)
            return
        }

        // W13, the rewrite workload (`RewriteCost`): notes edited, then compacted.
        if arguments.contains("--rewrite") {
            try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
            defer { if !arguments.contains("--keep") { try? FileManager.default.removeItem(atPath: workDirectory) } }
            let report = try await RewriteCost.run(
                directory: workDirectory, records: value(after: "--records").flatMap(Int.init) ?? (quick ? 100_000 : 1_000_000),
                singleCommits: quick ? 300 : 2_000)
            try Self.output(report, json: jsonPath)
            return
        }

        if arguments.contains("--commit-cost") {
            try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: workDirectory) }
            print(try await CommitCost.run(directory: workDirectory, commits: value(after: "--records").flatMap(Int.init) ?? 20_000, writers: [1, 16],
                preload: value(after: "--preload").flatMap(Int.init) ?? 0))
            return
        }

        if arguments.contains("--batch-cost") {
            try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: workDirectory) }
            print(try await CommitCost.batches(directory: workDirectory, records: value(after: "--records").flatMap(Int.init) ?? 200_000,
                views: !arguments.contains("--no-views"), durable: arguments.contains("--fsync")))
            return
        }

        if arguments.contains("--encode-cost") {
            print(try await EncodeCost.run(
                rows: value(after: "--records").flatMap(Int.init) ?? 200_000, rounds: value(after: "--rounds").flatMap(Int.init) ?? 10))
            return
        }

        if let directory = value(after: "--changes-cost") {
            print(try await ChangesCost.run(directory: directory, last: value(after: "--last").flatMap(Int.init) ?? 10_000,
                rounds: value(after: "--rounds").flatMap(Int.init) ?? 20, recordsToo: !arguments.contains("--notes-only"),
                thrashBytes: (value(after: "--thrash-mb").flatMap(Int.init) ?? 0) << 20))
            return
        }

        if arguments.contains("--sync-cost") {
            try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: workDirectory) }
            print(try await SyncCost.run(directory: workDirectory, records: value(after: "--records").flatMap(Int.init) ?? 100_000))
            return
        }

        if let directory = value(after: "--replay-cost") {
            print(try await ReplayCost.run(
                directory: directory, records: value(after: "--records").flatMap(Int.init) ?? 1_000_000,
                singles: value(after: "--singles").flatMap(Int.init) ?? 10_000,
                rounds: value(after: "--rounds").flatMap(Int.init) ?? 3))
            return
        }

        let records = value(after: "--records").flatMap(Int.init) ?? (quick ? 100_000 : 1_000_000)
        let singleCommits = quick ? 300 : 2_000
        let concurrentCommits = quick ? 1_600 : 8_000
        let writers = 16
        let batch = 1_000


        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        // `--keep` leaves the stores behind, closed: to profile W6's child on them (`--open-only`).
        defer { if !arguments.contains("--keep") { try? FileManager.default.removeItem(atPath: workDirectory) } }
        var results: [String: Outcome] = [:]

        let coresAtStart = Measure.effectiveCores()
        log("setting up in \(workDirectory) (\(records) records); effective cores now: \(String(format: "%.1f", coresAtStart))")
        let ours = try await Ours(path: workDirectory + "/ours")
        let peers: [any NotesPeer] = [
            try await SQLitePeer(path: workDirectory + "/peer.sqlite"),
            try RocksDBPeer(path: workDirectory + "/rocksdb"),
            try LMDBPeer(path: workDirectory + "/lmdb"),
        ]
        let names = peers.map { type(of: $0).name }
        /// Each peer's figure by its name.
        func byName(_ values: [Double]) -> [String: Double] { Dictionary(uniqueKeysWithValues: zip(names, values)) }
        /// Waits, untimed, until no side has background work left (``NotesPeer/settle()``): done
        /// before every side's turn, so that no side's deferred work — RocksDB's compactions, our
        /// views' folds — runs in another side's measurement.
        func settleAll() async throws {
            await ours.settle()
            for peer in peers { try await peer.settle() }
        }
        /// Seconds each peer takes to run `body` on it, one after the other, each once every
        /// side has settled.
        func timePeers(_ body: (any NotesPeer) async throws -> Void) async throws -> [Double] {
            var times: [Double] = []
            for peer in peers {
                try await settleAll()
                times.append(try await Measure.seconds { try await body(peer) })
            }
            return times
        }

        /// Saves rows `range` on every side in commits of `batch`, the sides taking turns every
        /// ten commits (so all meet the VM's swings alike); the rows are made outside the timing.
        /// Our turn ends once our views have folded its last commit (`ViewFeed` folds a large
        /// commit on a second thread after it returns): none of our work runs into a peer's turn.
        /// Every turn starts once every side has settled (`settleAll`, untimed).
        func saveBatched(_ range: Range<Int>) async throws -> (ours: Double, peers: [Double]) {
            var timeOurs = 0.0
            var peerTimes = [Double](repeating: 0, count: peers.count)
            let turn = 10 * batch
            for turnStart in stride(from: range.lowerBound, to: range.upperBound, by: turn) {
                let commits = stride(from: turnStart, to: min(turnStart + turn, range.upperBound), by: batch).map { start in
                    (start..<min(start + batch, range.upperBound)).map(Dataset.row)
                }
                try await settleAll()
                timeOurs += try await Measure.seconds {
                    for rows in commits { try await ours.saveCommit(rows) }
                    await ours.viewsCaughtUp()
                }
                let times = try await timePeers { peer in
                    for rows in commits { try await peer.saveCommit(rows) }
                }
                for index in peers.indices { peerTimes[index] += times[index] }
            }
            return (timeOurs, peerTimes)
        }

        // W1: batched durable saves, 1000 records per commit.
        let (w1Ours, w1Peers) = try await saveBatched(0..<records)
        results["W1"] = .rate(ours: Double(records) / w1Ours, peers: byName(w1Peers.map { Double(records) / $0 }), unit: "rows/s")
        log("W1 done")
        // `--until Wn` stops after that workload (W1 to W5): for profiling one path.
        let until = value(after: "--until")
        func stopping(after workload: String) -> Bool {
            guard until == workload else { return false }
            print(Report(machine: [:], parameters: [:], workloads: results).table())
            return true
        }
        if stopping(after: "W1") { return }

        // W2: one durable save per commit, one writer.
        var next = records
        let singles = (next..<(next + singleCommits)).map(Dataset.row)
        try await settleAll()
        var syncsBefore = ours.database.syncCount
        let w2Ours = try await Measure.seconds { try await ours.saveSingly(singles, writers: 1) }
        let w2Syncs = ours.database.syncCount - syncsBefore
        let w2Peers = try await timePeers { try await $0.saveSingly(singles, writers: 1) }
        next += singleCommits
        results["W2"] = .rate(
            ours: Double(singleCommits) / w2Ours, peers: byName(w2Peers.map { Double(singleCommits) / $0 }), unit: "commits/s",
            note: "ours: \(w2Syncs) fdatasyncs for \(singleCommits) commits")
        log("W2 done")
        if stopping(after: "W2") { return }

        // W3: 16 concurrent writers, one save per commit each (the key-value peers' writers are
        // threads of their own: see `Threads`).
        let concurrent = (next..<(next + concurrentCommits)).map(Dataset.row)
        try await settleAll()
        syncsBefore = ours.database.syncCount
        let w3Ours = try await Measure.seconds { try await ours.saveSingly(concurrent, writers: writers) }
        let w3Syncs = ours.database.syncCount - syncsBefore
        let w3Peers = try await timePeers { try await $0.saveSingly(concurrent, writers: writers) }
        next += concurrentCommits
        results["W3"] = .rate(
            ours: Double(concurrentCommits) / w3Ours, peers: byName(w3Peers.map { Double(concurrentCommits) / $0 }), unit: "commits/s",
            note: String(format: "ours: %.1f commits per fdatasync", Double(concurrentCommits) / Double(max(w3Syncs, 1))))
        log("W3 done")
        if stopping(after: "W3") { return }

        // W4: changes since a token taken before the last 1% of writes.
        let token = try await ours.currentToken()
        var sequences: [Int64] = []
        for peer in peers { sequences.append(try await peer.currentSequence()) }
        let lastPercent = max(1, records / 100)
        _ = try await saveBatched(next..<(next + lastPercent))
        next += lastPercent
        // Each side fetches the same changes five times, the sides taking turns at going first:
        // one fetch of ~15 ms is at the mercy of this VM's speed, which swings by 2× within the
        // hour. W4 is each side's median; every fetch is in the note, the first right after the
        // writes, each with its page faults (a first touch of fresh memory costs ~3 µs a page on
        // this VM, and whether the heap has room left by earlier workloads varies from run to run).
        // Side 0 is ours, side i + 1 is peers[i].
        let sides = peers.count + 1
        var changed = [Int](repeating: 0, count: sides)
        var times = [[Double]](repeating: [], count: sides)
        var faults = [[Int]](repeating: [], count: sides)
        for round in 0..<5 {
            for step in 0..<sides {
                let side = (round + step) % sides
                try await settleAll()
                let faultsBefore = Measure.pageFaults()
                times[side].append(
                    try await Measure.seconds {
                        if side == 0 {
                            changed[side] = try await ours.changes(since: token)
                        } else {
                            changed[side] = try await peers[side - 1].changes(since: sequences[side - 1])
                        }
                    })
                faults[side].append(Measure.pageFaults() - faultsBefore)
            }
        }
        // Ours again as `[Record]` pages (CloudKit's generic records, not the app's model), once,
        // after the rounds.
        var recordsChanged = 0
        let w4Records = try await Measure.seconds { recordsChanged = try await ours.changedRecords(since: token) }
        let fetches = (["ours"] + names).indices.map { side in
            "\((["ours"] + names)[side]) \(changed[side]): \(Self.fetchList(times[side], faults[side]))"
        }
        results["W4"] = .cost(
            ours: Measure.median(times[0]) * 1000, peers: byName(times.dropFirst().map { Measure.median($0) * 1000 }), unit: "ms",
            note: "changes into Notes, median of 5 fetches per side, the sides taking turns at going first; each fetch in ms (page faults): "
                + fetches.joined(separator: "; ") + String(format: "; ours as %d Records: %.1f ms", recordsChanged, w4Records * 1000))
        log("W4 done")
        // `--repeat-w4 N`: our W4 fetch N times more in this live process, after the sides'
        // rounds, each printed: a stretch long enough to profile W4 where it runs.
        if let repeats = value(after: "--repeat-w4").flatMap(Int.init) {
            for round in 1...max(1, repeats) {
                let faultsBefore = Measure.pageFaults()
                var count = 0
                let seconds = try await Measure.seconds { count = try await ours.changes(since: token) }
                log(String(format: "W4 again %d: %d changes into Notes in %.2f ms (%d page faults)", round, count, seconds * 1000, Measure.pageFaults() - faultsBefore))
            }
        }
        if stopping(after: "W4") { return }

        // W5: full replay into the Notes view (no checkpoint) vs a full scan decoding every row.
        var oursReplayed = 0
        var scannedByPeers: [Int] = []
        var w5CPU = 0.0
        try await settleAll()
        let w5Faults = Measure.pageFaults()
        let w5Ours = try await Measure.seconds { w5CPU = try await Measure.cpuSeconds { oursReplayed = try ours.replay() } }
        let w5OursFaults = Measure.pageFaults() - w5Faults
        let w5Peers = try await timePeers { scannedByPeers.append(try await $0.replay()) }
        results["W5"] = .rate(
            ours: Double(oursReplayed) / w5Ours, peers: byName(zip(scannedByPeers, w5Peers).map { Double($0) / $1 }), unit: "records/s",
            note: String(format: "ours: %.0f ms, %.0f ms of CPU (every thread of the process), %d page faults", w5Ours * 1000, w5CPU * 1000, w5OursFaults))
        log("W5 done")
        if stopping(after: "W5") { return }

        // W8: bytes on disk (closed: the log with its checkpoint, SQLite after its WAL checkpoint,
        // RocksDB with its WAL and SST files, LMDB's data and lock files), each side settled.
        try await settleAll()
        try ours.close()
        for peer in peers { try peer.close() }
        let contentBytes = (0..<next).reduce(0) { $0 + Dataset.row($1).content.utf8.count }
        let oursBytes = Measure.diskBytes(workDirectory + "/ours")
        let peerBytes = peers.map { Double($0.diskBytes()) }
        results["W8"] = .cost(
            ours: Double(oursBytes), peers: byName(peerBytes), unit: "bytes",
            note: "bytes per content byte: "
                + zip(["ours"] + names, [Double(oursBytes)] + peerBytes).map { "\($0) " + String(format: "%.2f", $1 / Double(contentBytes)) }
                .joined(separator: ", "))

        // W6 + W9: cold open (checkpoint, view snapshots) and the first folder fetch, each in a
        // fresh process; the memory that process holds afterwards, per live record.
        func openInChild(_ side: String, _ path: String) throws -> ChildOpen {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["--open-only", side, "--path", path]
            let pipe = Pipe()
            child.standardOutput = pipe
            try child.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            let parts = text.split(whereSeparator: \.isWhitespace)
            guard child.terminationStatus == 0, parts.count == 4, let seconds = Double(parts[0]), let rss = Int(parts[1]),
                let databaseSeconds = Double(parts[2]), let databaseRSS = Int(parts[3])
            else {
                throw CocoaError(.fileReadCorruptFile)
            }
            return (seconds, rss, databaseSeconds, databaseRSS)
        }
        // Five fresh processes per side, the sides taking turns at going first; each side's
        // median open (one open swung 41–94 ms for the same code on this VM). W9 is read from
        // that run. Side 0 is ours.
        let paths = [workDirectory + "/ours"] + peers.map(\.path)
        var opens = [[ChildOpen]](repeating: [], count: sides)
        for round in 0..<5 {
            for step in 0..<sides {
                let side = (round + step) % sides
                opens[side].append(try openInChild((["ours"] + names)[side], paths[side]))
            }
        }
        let medianOpens = opens.map { $0.sorted { $0.seconds < $1.seconds }[$0.count / 2] }
        let oursOpen = medianOpens[0]
        var scanned = 0
        let scanSeconds = try await Measure.seconds { scanned = try Ours.scanLog(path: workDirectory + "/ours") }
        results["W6"] = .cost(
            ours: oursOpen.seconds * 1000, peers: byName(medianOpens.dropFirst().map { $0.seconds * 1000 }), unit: "ms",
            note: "median of 5 fresh processes per side, the sides taking turns at going first ("
                + zip(["ours"] + names, opens).map { name, opens in
                    name + " " + opens.map { String(format: "%.0f", $0.seconds * 1000) }.joined(separator: "/")
                }.joined(separator: ", ") + " ms); "
                + String(
                    format: "ours: %.0f ms opening the database (key index), %.0f ms the Notes views and the fetch; reading and decompressing the whole log alone (%d records, no decoding): %.0f ms",
                    oursOpen.databaseSeconds * 1000, (oursOpen.seconds - oursOpen.databaseSeconds) * 1000, scanned, scanSeconds * 1000))
        results["W9"] = .cost(
            ours: Double(oursOpen.rss) / Double(next), peers: byName(medianOpens.dropFirst().map { Double(max($0.rss, 1)) / Double(next) }),
            unit: "bytes/record",
            note: String(
                format: "resident memory an open store adds, per live record; target ≤ 128; ours: %.0f the database (key index), %.0f the Notes views",
                Double(oursOpen.databaseRSS) / Double(next), Double(oursOpen.rss - oursOpen.databaseRSS) / Double(next)))
        try await ours.reopen()
        for peer in peers { try peer.reopen() }
        log("W6 W9 done")

        // W7: warm fetch of one folder's notes, sorted.
        let rounds = 50
        var foundOurs = 0
        var foundByPeers: [Int] = []
        try await settleAll()
        let w7Ours = try await Measure.seconds { for round in 0..<rounds { foundOurs = try await ours.fetchFolder(round % Dataset.folderCount) } }
        let w7Peers = try await timePeers { peer in
            var found = 0
            for round in 0..<rounds { found = try await peer.fetchFolder(round % Dataset.folderCount) }
            foundByPeers.append(found)
        }
        results["W7"] = .cost(
            ours: w7Ours * 1000 / Double(rounds), peers: byName(w7Peers.map { $0 * 1000 / Double(rounds) }), unit: "ms",
            note: "notes per folder: ours \(foundOurs), " + zip(names, foundByPeers).map { "\($0) \($1)" }.joined(separator: ", "))
        log("W7 done")

        // W10: our encode path (record batch + LZ4 + CRC) vs liblz4 alone on the same bytes.
        let w10 = try await EncodeCost.measure(EncodeCost.input(rows: min(records, 200_000)), batch: batch)
        results["W10"] = .rate(
            ours: w10.oursBytesPerSecond / 1e6, peers: ["liblz4": w10.peerBytesPerSecond / 1e6], unit: "MB/s",
            note: "ours: record framing + LZ4 + CRC; peer: liblz4 on the keys and values alone; each side into memory kept from commit to commit, the median of 5 alternated rounds"
                + String(format: "; liblz4 with its gather of keys and values timed too: %.0f MB/s", w10.peerWithGatherBytesPerSecond / 1e6))
        try ours.close()
        for peer in peers { try peer.close() }

        if let note = results["W9"]?.note {
            results["W9"]?.note = note + "; peak RSS of the whole run \(Measure.status("VmHWM") >> 20) MiB"
        }
        var machine = Measure.machine()
        machine["effectiveCores"] = String(format: "%.1f at the start, %.1f at the end", coresAtStart, Measure.effectiveCores())
        log("effective cores: \(machine["effectiveCores"] ?? "")")
        let report = Report(
            machine: machine,
            parameters: ["records": records, "singleCommits": singleCommits, "concurrentCommits": concurrentCommits, "writers": writers, "batch": batch],
            workloads: results)
        print(report.table())
        if let jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try encoder.encode(report).write(to: URL(fileURLWithPath: jsonPath))
        }

    }
}

/// What a W6/W9 child process reports: seconds and resident bytes in all, and the part of both
/// spent opening the database alone.
typealias ChildOpen = (seconds: Double, rss: Int, databaseSeconds: Double, databaseRSS: Int)

extension Bench {
    /// The peers a W6/W9 child process can open, by name.
    /// Opens the existing store of the peer named `name` ("peer" is SQLite's old name here).
    /// A switch, not a table of metatypes: calling `openExisting` (which returns `Self`) through
    /// an `any NotesPeer.Type` crashes Swift 6.3.1's SILGen.
    static func openExisting(_ name: String, path: String) throws -> any NotesPeer {
        switch name {
        case SQLitePeer.name, "peer": try SQLitePeer.openExisting(path: path)
        case RocksDBPeer.name: try RocksDBPeer.openExisting(path: path)
        case LMDBPeer.name: try LMDBPeer.openExisting(path: path)
        default: throw PeerError("--open-only takes ours, \(SQLitePeer.name), \(RocksDBPeer.name) or \(LMDBPeer.name), not \(name)")
        }
    }

    /// Prints a report of a workload run alone (its table, then the machine) and writes it as
    /// JSON to `json` when given.
    static func output(_ report: Report, json jsonPath: String?) throws {
        print(report.table())
        print("machine: " + report.machine.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "; "))
        if let jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try encoder.encode(report).write(to: URL(fileURLWithPath: jsonPath))
        }
    }

    /// "10.5 (15) / 7.6 (0) / …": each fetch's milliseconds and page faults, in order.
    static func fetchList(_ seconds: [Double], _ faults: [Int]) -> String {
        zip(seconds, faults).map { String(format: "%.1f (%d)", $0 * 1000, $1) }.joined(separator: " / ")
    }
}
