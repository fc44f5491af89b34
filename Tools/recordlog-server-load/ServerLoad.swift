import ArgumentParser
import Foundation
import RecordClient
import RecordLog
import RecordPostgres
import RecordStore

/// recordlog-server-load: a load generator for recordlog-server on loopback — N clients each
/// saving a note and fetching the zone's changes from its token, in a loop; then the time a note
/// saved by one device takes to reach another through push and a fetch.
@main
struct ServerLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recordlog-server-load",
        abstract: "Load a recordlog-server database.",
        subcommands: [Mixed.self, Prefill.self, FencedAppends.self], defaultSubcommand: Mixed.self)
}

/// Fenced appends straight to PostgreSQL through RecordPostgres, as nodes make them: each client
/// appends one-record batches (a ~300-byte note, LZ4) to zones of its own (client i to zone
/// i % zones), knowing its zones' ends as a node's mirror does, so one statement per commit.
struct FencedAppends: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fenced-appends", abstract: "Time fenced appends to PostgreSQL from N clients (Tools/cluster/fence-bench).")

    @Option(help: "The PostgreSQL URL.") var postgres: String
    @Option(help: "Concurrent clients.") var clients = 16
    @Option(help: "Zones the clients share out.") var zones = 64
    @Option(help: "Seconds of load.") var seconds = 10.0

    func run() async throws {
        let database = "bench-\(UInt32.random(in: 0...UInt32.max))"
        let deadline = ContinuousClock.now + .seconds(seconds)
        let start = ContinuousClock.now
        let zones = self.zones
        let counts = try await PostgresLog.withLog(at: postgres, database: database, connections: clients) { log in
            for zone in 0..<zones { try await log.createZone("z\(zone)") }
            return try await withThrowingTaskGroup(of: (appends: Int, refused: Int).self) { group in
                for client in 0..<clients {
                    group.addTask {
                        let zone = "z\(client % zones)"
                        var end = try await log.endOffset(of: zone)
                        var appends = 0
                        var refused = 0
                        while ContinuousClock.now < deadline {
                            var builder = RecordBatchBuilder()
                            builder.append(key: "c\(client)-\(appends)", value: Array(String(repeating: "buy milk and bread ", count: 16).utf8))
                            do {
                                end = try await log.append(try builder.encode(), to: zone, at: end).upperBound
                                appends += 1
                            } catch let error as PostgresLogError {
                                guard case .fenced(_, let actual?) = error.kind else { throw error }
                                end = actual
                                refused += 1
                            }
                        }
                        return (appends, refused)
                    }
                }
                return try await group.reduce(into: (appends: 0, refused: 0)) {
                    $0.appends += $1.appends
                    $0.refused += $1.refused
                }
            }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(String(format: "%.0f", Double(counts.appends) / seconds), "appends/s,", counts.refused, "refused")
    }
}

/// Fills a database's zone "Notes" with a folder and N notes as the Notes app stores them, 400
/// per request: the server side of a device's first sync.
struct Prefill: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Save a folder and N notes (the Notes app's records) into zone Notes.")

    @Option(help: "The server's URL.") var url: String
    @Option(help: "The database.") var database = "notes"
    @Option(parsing: .unconditional, help: "The database's token (default: $RECORDLOG_TOKEN).") var token: String?
    @Option(help: "How many notes.") var notes = 100_000

    func run() async throws {
        guard let base = URL(string: url) else { throw ValidationError("--url is not a URL") }
        guard let token = token ?? ProcessInfo.processInfo.environment["RECORDLOG_TOKEN"] else { throw ValidationError("no token") }
        let zone = ZoneID(zoneName: "Notes")
        let remote = HTTPRemoteDatabase(url: base, database: database, token: token)
        try await remote.save(RecordZone(zoneID: zone))
        var folder = Record(recordType: "Folder", recordID: RecordID(recordName: "load-folder", zoneID: zone))
        folder["name"] = .string("Load")
        var pending = [folder]
        // Texts of ~250 bytes from a seeded pick of words: as compressible as prose, not as a
        // repeated phrase (which gzip would shrink to nothing).
        var seed = UInt64(0x5EED)
        func word() -> String {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Self.words[Int(seed >> 33) % Self.words.count]
        }
        for index in 0..<notes {
            var note = Record(recordType: "Note", recordID: RecordID(recordName: "load-note-\(index)", zoneID: zone))
            let content = "Note \(index)\n" + (0..<40).map { _ in word() }.joined(separator: " ")
            note["content"] = .string(content)
            note["title"] = .string("Note \(index)")
            note["folder"] = .reference(Reference(recordID: folder.recordID, action: .deleteSelf))
            pending.append(note)
            if pending.count == 400 || index == notes - 1 {
                _ = try await remote.modifyRecords(saving: pending, deleting: [], savePolicy: .allKeys, atomically: true, clientChangeTokenData: nil)
                pending.removeAll(keepingCapacity: true)
            }
        }
        print("saved 1 folder and \(notes) notes")
    }

    static let words = """
        the of and to in is was that for on with as by at from his her they have had not are but this which one were all \
        been would their there when who will more if out so said what up about into than them can only other new some \
        could time these two may first then do any like my now over such our man me even most made after also did many \
        before must through back years where much your way well down should because each just those people how too \
        little state good very make world still own see men work long get here between both life being under never day \
        same another know while last might us great old year off come since against go came right used take three \
        milk bread call meeting notes project report draft idea garden train ticket monday friday budget invoice
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
}

/// N clients each saving a note and fetching the zone's changes, then push latency.
struct Mixed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Modify and fetch-changes from N clients; push latency.",
        discussion: """
            Prints requests per second and p50/p99 latency for each operation, then the save → \\
            notification → fetched latency between two clients. Tools/server/load builds both in \\
            release mode, starts a server on loopback and runs this against it.
            """)

    @Option(help: "The server's URL.") var url: String
    @Option(help: "The database.") var database = "notes"
    // Unconditional: a token issued before tokens had their prefix may start with "-".
    @Option(parsing: .unconditional, help: "The database's token (default: $RECORDLOG_TOKEN).") var token: String?
    @Option(help: "Concurrent clients.") var clients = 8
    @Option(help: "Seconds of load.") var seconds = 10.0
    @Option(help: "Push round trips to time.") var pushSamples = 100

    func run() async throws {
        guard let base = URL(string: url) else { throw ValidationError("--url is not a URL") }
        guard let token = token ?? ProcessInfo.processInfo.environment["RECORDLOG_TOKEN"] else { throw ValidationError("no token") }
        let zone = ZoneID(zoneName: "Load")
        let setup = HTTPRemoteDatabase(url: base, database: database, token: token)
        try await setup.save(RecordZone(zoneID: zone))

        let deadline = ContinuousClock.now + .seconds(seconds)
        let start = ContinuousClock.now
        let results = try await withThrowingTaskGroup(of: (modify: [Duration], fetch: [Duration]).self) { group in
            for client in 0..<clients {
                group.addTask {
                    let remote = HTTPRemoteDatabase(url: base, database: database, token: token)
                    var modify: [Duration] = []
                    var fetch: [Duration] = []
                    var changeToken: ServerChangeToken?
                    var index = 0
                    while ContinuousClock.now < deadline {
                        var note = Record(recordType: "Note", recordID: RecordID(recordName: "c\(client)-\(index)", zoneID: zone))
                        note["text"] = .string("Note \(index) of client \(client): " + String(repeating: "lorem ipsum ", count: 20))
                        index += 1
                        let saveStart = ContinuousClock.now
                        _ = try await remote.modifyRecords(
                            saving: [note], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
                        modify.append(ContinuousClock.now - saveStart)
                        let fetchStart = ContinuousClock.now
                        let page = try await remote.fetchZoneChanges(
                            inZonesWith: [zone], configurations: [zone: ZoneChangesConfiguration(previousServerChangeToken: changeToken, resultsLimit: 100)])
                        changeToken = try page[zone]?.get().changeToken
                        fetch.append(ContinuousClock.now - fetchStart)
                    }
                    return (modify, fetch)
                }
            }
            return try await group.reduce(into: (modify: [Duration](), fetch: [Duration]())) {
                $0.modify += $1.modify
                $0.fetch += $1.fetch
            }
        }
        let elapsed = ContinuousClock.now - start
        let total = Double(results.modify.count + results.fetch.count)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("clients \(clients), \(String(format: "%.1f", seconds)) s: \(String(format: "%.0f", total / seconds)) requests/s")
        print(Self.line("modify (1 note)", results.modify, seconds))
        print(Self.line("fetch changes", results.fetch, seconds))

        // Push: device B listens; device A saves; B gets the notification and fetches the note.
        let sender = HTTPRemoteDatabase(url: base, database: database, token: token)
        let receiver = HTTPRemoteDatabase(url: base, database: database, token: token)
        try await sender.save(Subscription(id: "load-push", kind: .zone(zone)))
        var receiverToken = try await receiver.fetchZoneChanges(inZonesWith: [zone], configurations: [:])[zone]?.get().changeToken
        while true {
            let page = try await receiver.fetchZoneChanges(inZonesWith: [zone], configurations: [zone: .init(previousServerChangeToken: receiverToken)])
            let changes = try page[zone]?.get()
            receiverToken = changes?.changeToken
            if changes?.moreComing != true { break }
        }
        let stream = try await receiver.notifications(for: "load-push")
        var notifications = stream.makeAsyncIterator()
        var push: [Duration] = []
        for sample in 0..<pushSamples {
            let name = "push-\(sample)"
            var note = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
            note["text"] = .string("pushed \(sample)")
            let sent = ContinuousClock.now
            _ = try await sender.modifyRecords(saving: [note], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
            var arrived = false
            while !arrived {
                guard await notifications.next() != nil else { throw ValidationError("the notification stream ended") }
                let page = try await receiver.fetchZoneChanges(inZonesWith: [zone], configurations: [zone: .init(previousServerChangeToken: receiverToken)])
                let changes = try page[zone]?.get()
                receiverToken = changes?.changeToken
                arrived = changes?.changedRecords.contains { $0.recordID.recordName == name } == true
            }
            push.append(ContinuousClock.now - sent)
        }
        print(Self.line("save → push → fetched on a 2nd device", push, nil))
    }

    static func line(_ name: String, _ samples: [Duration], _ seconds: Double?) -> String {
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> String {
            guard !sorted.isEmpty else { return "-" }
            let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
            return String(format: "%.2f ms", Double(value.components.attoseconds) / 1e15 + Double(value.components.seconds) * 1000)
        }
        let rate = seconds.map { String(format: ", %.0f/s", Double(samples.count) / $0) } ?? ""
        return "  \(name): \(samples.count)\(rate), p50 \(percentile(0.5)), p99 \(percentile(0.99))"
    }
}
