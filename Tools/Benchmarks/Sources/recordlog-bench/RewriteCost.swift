import Foundation
import RecordLog
import RecordStore

/// `--rewrite`: W13, the rewrite workload (the Compaction issue's benchmark). `records` notes
/// saved in commits of 1000, then every other note edited four times (half the notes, each edit
/// a commit of 1000 edits, the sides taking turns every ten commits), on every side:
/// - **W13a** bytes on disk after the writes, each store closed (as W8);
/// - **W13b** bytes on disk after each engine's own compaction, closed: ours `Database.compact`
///   of the notes zone (the default tombstone retention, 24 hours: the workload deletes
///   nothing, so the retention changes nothing), SQLite after `VACUUM`, RocksDB after
///   `rocksdb_compact_range` over every key, LMDB as it is (it has no compaction);
/// - **W13c** compaction throughput: the bytes compacted (ours: the sealed log the compaction
///   read, its report's `bytesBefore`; the peers: their closed files before compaction) over the
///   compaction's wall time, in MB/s;
/// - **W13d** and **W13e**, W2 and W4 while a compaction runs: the half edited four times
///   again, then per side its compaction started (ours: `Database.compact` as a task — the
///   database's compaction queue, where a background compaction runs; SQLite `VACUUM`, RocksDB
///   its manual compaction, each on its own task) and, 50 ms later, W4's five fetches of the
///   changes since a token taken before the last 1% of the edits, then W2's single-note
///   commits. LMDB, with no compaction to run, is left out of these two; the note gives every
///   side's W2 and W4 just before, with no compaction running.
///
/// The store is opened with `CompactionPolicy.manual`: nothing is compacted until the workload
/// asks, so that W13a is the log as written.
enum RewriteCost {
    static let batch = 1000
    static let editRounds = 4

    static func run(directory: String, records: Int, singleCommits: Int) async throws -> Report {
        let load = ProcessCost.loadAverage()
        let coresAtStart = Measure.effectiveCores()
        Bench.log("rewrite workload in \(directory) (\(records) notes, half edited \(editRounds) times); effective cores now: \(String(format: "%.1f", coresAtStart))")
        var results: [String: Outcome] = [:]
        let ours = try await Ours(path: directory + "/ours", compaction: .manual)
        let peers: [any NotesPeer] = [
            try await SQLitePeer(path: directory + "/peer.sqlite"),
            try RocksDBPeer(path: directory + "/rocksdb"),
            try LMDBPeer(path: directory + "/lmdb"),
        ]
        let names = peers.map { type(of: $0).name }
        func byName(_ values: [Double], only kept: (Int) -> Bool = { _ in true }) -> [String: Double] {
            Dictionary(uniqueKeysWithValues: zip(names, values).enumerated().filter { kept($0.offset) }.map { $0.element })
        }
        func closeAll() throws {
            try ours.close()
            for peer in peers { try peer.close() }
        }
        func reopenAll() async throws {
            try await ours.reopen()
            for peer in peers { try peer.reopen() }
        }

        /// Saves `rows` on every side in commits of `batch`, the sides taking turns every ten
        /// commits; ours saves edits as the Notes facade does. Returns each side's seconds.
        func write(_ rows: [Dataset.Row], edits: Bool) async throws -> (ours: Double, peers: [Double]) {
            var timeOurs = 0.0
            var peerTimes = [Double](repeating: 0, count: peers.count)
            for turnStart in stride(from: 0, to: rows.count, by: 10 * batch) {
                let commits = stride(from: turnStart, to: min(turnStart + 10 * batch, rows.count), by: batch).map {
                    Array(rows[$0..<min($0 + batch, rows.count)])
                }
                timeOurs += try await Measure.seconds {
                    for commit in commits { try await edits ? ours.saveEdits(commit) : ours.saveCommit(commit) }
                    await ours.viewsCaughtUp()
                }
                for (index, peer) in peers.enumerated() {
                    peerTimes[index] += try await Measure.seconds { for commit in commits { try await peer.saveCommit(commit) } }
                }
            }
            return (timeOurs, peerTimes)
        }
        let half = Array(stride(from: 0, to: records, by: 2))
        /// The edits of round `edit` of the half.
        func edits(_ edit: Int) -> [Dataset.Row] { half.map { Dataset.row($0, edit: edit) } }

        // The rewrite: the notes, then four edits of half of them.
        _ = try await write((0..<records).map(Dataset.row), edits: false)
        var editTimes = (ours: 0.0, peers: [Double](repeating: 0, count: peers.count))
        for edit in 1...editRounds {
            let (timeOurs, timePeers) = try await write(edits(edit), edits: true)
            editTimes.ours += timeOurs
            for index in peers.indices { editTimes.peers[index] += timePeers[index] }
        }
        let editCount = Double(half.count * editRounds)
        Bench.log("rewrite written")

        // W13a: bytes before compaction, closed.
        try closeAll()
        let oursBefore = Double(Measure.diskBytes(ours.path))
        let peersBefore = peers.map { Double($0.diskBytes()) }
        // The live notes' text: every note in its latest edit.
        let contentBytes = Double((0..<records).reduce(0) { $0 + Dataset.row($1, edit: $1 % 2 == 0 ? editRounds : 0).content.utf8.count })
        func perContentByte(_ ours: Double, _ peers: [Double]) -> String {
            "bytes per content byte of the live notes: "
                + zip(["ours"] + names, [ours] + peers).map { "\($0) " + String(format: "%.2f", $1 / contentBytes) }.joined(separator: ", ")
        }
        results["W13a"] = .cost(
            ours: oursBefore, peers: byName(peersBefore), unit: "bytes",
            note: "\(records) notes, then \(half.count) of them edited \(editRounds) times, closed, before any compaction; "
                + perContentByte(oursBefore, peersBefore)
                + String(format: "; the edits ran at ours %.0f rows/s, ", editCount / editTimes.ours)
                + zip(names, editTimes.peers).map { "\($0) " + String(format: "%.0f", editCount / $1) }.joined(separator: ", "))

        // W13b and W13c: each engine's compaction, alone, timed; bytes after it, closed.
        try await reopenAll()
        var report: CompactionReport?
        let oursSeconds = try await Measure.seconds { report = try await ours.database.compact(zone: Ours.zone).first }
        guard let report else { throw PeerError("our compaction reported nothing") }
        var peerSeconds: [Double] = []
        var compacting: [Bool] = []
        for peer in peers {
            var ran = false
            peerSeconds.append(try await Measure.seconds { ran = try await peer.compact() })
            compacting.append(ran)
        }
        try closeAll()
        let oursAfter = Double(Measure.diskBytes(ours.path))
        let peersAfter = peers.map { Double($0.diskBytes()) }
        results["W13b"] = .cost(
            ours: oursAfter, peers: byName(peersAfter), unit: "bytes",
            note: "after each engine's compaction, closed (ours: Database.compact, default retention; sqlite: VACUUM; rocksdb: rocksdb_compact_range; lmdb: as is); "
                + perContentByte(oursAfter, peersAfter)
                + String(format: "; ours: the log's sealed segments %.1f → %.1f MB, %d of %d records removed", Double(report.bytesBefore) / 1e6,
                    Double(report.bytesAfter) / 1e6, report.recordsRemoved, report.recordsRead))
        let megabytes = Double(report.bytesBefore) / 1e6
        results["W13c"] = .rate(
            ours: megabytes / oursSeconds,
            peers: byName(zip(peersBefore, peerSeconds).map { $0 / 1e6 / $1 }, only: { compacting[$0] }), unit: "MB/s",
            note: String(format: "ours: %.1f MB of log in %.2f s; ", megabytes, oursSeconds)
                + zip(names, zip(peersBefore, peerSeconds)).enumerated().filter { compacting[$0.offset] }.map {
                    "\($0.element.0): " + String(format: "%.1f MB in %.2f s", $0.element.1.0 / 1e6, $0.element.1.1)
                }.joined(separator: "; ") + "; lmdb has no compaction")
        Bench.log("W13a–c done")

        // W13d and W13e: W2 and W4 while each side's compaction runs, on the log made dirty again.
        try await reopenAll()
        for edit in (editRounds + 1)...(2 * editRounds) { _ = try await write(edits(edit), edits: true) }
        var next = records
        /// W2's single-note commits on side `side` (0 ours, i + 1 peers[i]): seconds.
        func singles(_ side: Int) async throws -> Double {
            let rows = (next..<(next + singleCommits)).map(Dataset.row)
            next += singleCommits
            if side == 0 { return try await Measure.seconds { try await ours.saveSingly(rows, writers: 1) } }
            return try await Measure.seconds { try await peers[side - 1].saveSingly(rows, writers: 1) }
        }
        let sides = peers.count + 1
        // Every side's W2 with no compaction running, first.
        var singlesAlone: [Double] = []
        for side in 0..<sides { singlesAlone.append(try await singles(side)) }
        // The token before the last 1% of the edits.
        let token = try await ours.currentToken()
        var sequences: [Int64] = []
        for peer in peers { sequences.append(try await peer.currentSequence()) }
        let lastPercent = max(1, records / 100)
        _ = try await write(half.prefix(lastPercent).map { Dataset.row($0, edit: 2 * editRounds + 1) }, edits: true)
        /// W4's five fetches on side `side`: seconds each, and how many changes.
        func fetches(_ side: Int) async throws -> (times: [Double], changed: Int) {
            var times: [Double] = []
            var changed = 0
            for _ in 0..<5 {
                times.append(
                    try await Measure.seconds {
                        changed = side == 0 ? try await ours.changes(since: token) : try await peers[side - 1].changes(since: sequences[side - 1])
                    })
            }
            return (times, changed)
        }
        var fetchesAlone: [[Double]] = []
        for side in 0..<sides { fetchesAlone.append(try await fetches(side).times) }

        // Side by side, each with its own compaction running: W4, then W2.
        var duringW2: [Double?] = [], duringW4: [[Double]?] = [], overlaps: [String] = []
        var changedDuring = 0
        for side in 0..<sides {
            let start = ContinuousClock.now
            // Whether the side compacted, and when its compaction ended.
            let compaction: Task<(ran: Bool, end: ContinuousClock.Instant), any Error>
            if side == 0 {
                let database = ours.database
                compaction = Task { (try await database.compact(zone: Ours.zone).isEmpty == false, ContinuousClock.now) }
            } else {
                let peer = peers[side - 1]
                compaction = Task { (try await peer.compact(), ContinuousClock.now) }
            }
            try await Task.sleep(for: .milliseconds(50))
            let (times, changed) = try await fetches(side)
            let w2 = try await singles(side)
            let measuredEnd = ContinuousClock.now
            let (compacted, compactionEnd) = try await compaction.value
            let measured = measuredEnd - start, total = compactionEnd - start
            if side == 0 { changedDuring = changed }
            guard compacted else {
                duringW4.append(nil)
                duringW2.append(nil)
                continue
            }
            duringW4.append(times)
            duringW2.append(w2)
            overlaps.append(
                "\((["ours"] + names)[side]) " + String(format: "%.2f s of fetches and commits, its compaction %.2f s", Measure.seconds(of: measured), Measure.seconds(of: total))
                    + (compactionEnd < measuredEnd ? " (it finished first)" : ""))
        }
        let compactingSides = (0..<peers.count).filter { duringW2[$0 + 1] != nil }
        let alone = "; with no compaction running, just before: "
        results["W13d"] = .rate(
            ours: Double(singleCommits) / (duringW2[0] ?? 1),
            peers: byName(duringW2.dropFirst().map { $0.map { Double(singleCommits) / $0 } ?? 0 }, only: { compactingSides.contains($0) }),
            unit: "commits/s",
            note: "\(singleCommits) single-note commits, one writer, while the side's compaction runs (started 50 ms before W4's fetches, which came first); "
                + overlaps.joined(separator: "; ") + alone
                + zip(["ours"] + names, singlesAlone).map { "\($0) " + String(format: "%.0f", Double(singleCommits) / $1) }.joined(separator: ", ")
                + " commits/s")
        results["W13e"] = .cost(
            ours: Measure.median(duringW4[0] ?? []) * 1000,
            peers: byName(duringW4.dropFirst().map { Measure.median($0 ?? []) * 1000 }, only: { compactingSides.contains($0) }), unit: "ms",
            note: "\(changedDuring) changes since a token taken before the last 1% of the edits, into Notes, median of 5 fetches while the side's compaction runs; each in ms: "
                + zip(["ours"] + names, duringW4).compactMap { name, times in times.map { "\(name) " + $0.map { String(format: "%.1f", $0 * 1000) }.joined(separator: "/") } }
                .joined(separator: ", ") + alone
                + zip(["ours"] + names, fetchesAlone).map { "\($0) " + String(format: "%.1f", Measure.median($1) * 1000) }.joined(separator: ", ") + " ms")
        try closeAll()
        Bench.log("W13d–e done")

        var machine = Measure.machine()
        machine["loadAverage"] = "\(load) at the start, \(ProcessCost.loadAverage()) at the end"
        machine["effectiveCores"] = String(format: "%.1f at the start, %.1f at the end", coresAtStart, Measure.effectiveCores())
        return Report(
            machine: machine,
            parameters: ["records": records, "editedNotes": half.count, "editRounds": editRounds, "singleCommits": singleCommits, "batch": batch],
            workloads: results)
    }
}
