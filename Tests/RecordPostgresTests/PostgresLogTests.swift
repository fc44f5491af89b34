import Foundation
import RecordLog
import RecordPostgres
import Testing

/// The PostgreSQL server the tests use: `RECORDLOG_POSTGRES_URL` (.ci/run starts one and sets it).
enum TestPostgres {
    static let url = ProcessInfo.processInfo.environment["RECORDLOG_POSTGRES_URL"]
    static let underCI = ProcessInfo.processInfo.environment["CI"] != nil

    /// A database name of its own, so that tests running at once never share a zone.
    static func freshDatabase() -> String { "test-\(UUID().uuidString.lowercased())" }
}

@Suite struct PostgresAvailabilityTests {
    @Test("under CI the PostgreSQL tests have a server: they are never skipped there")
    func serverUnderCI() {
        if TestPostgres.underCI {
            #expect(TestPostgres.url != nil, "CI must set RECORDLOG_POSTGRES_URL (.ci/run starts PostgreSQL)")
        }
    }

    @Test("a postgres:// URL gives host, port, user, password and database; anything else is refused")
    func locations() throws {
        let full = try PostgresLocation(url: "postgres://alice:s3cret@db.example:6543/cluster")
        #expect(full == PostgresLocation(host: "db.example", port: 6543, username: "alice", password: "s3cret", database: "cluster"))
        let short = try PostgresLocation(url: "postgresql://bob@127.0.0.1")
        #expect(short.port == 5432 && short.database == "bob" && short.password == nil)
        for bad in ["http://a@b/c", "postgres://host-without-user/db", "postgres:///db", "not a url"] {
            #expect(throws: PostgresLogError.self) { try PostgresLocation(url: bad) }
        }
    }
}

/// A zone's commits as rows of a real PostgreSQL: unchanged Kafka v2 batches, dense offsets, and
/// the fence that refuses a writer whose plan is stale.
@Suite(.enabled(if: TestPostgres.url != nil, "set RECORDLOG_POSTGRES_URL to run them (.ci/run starts PostgreSQL)"))
struct PostgresLogTests {
    let url = TestPostgres.url ?? ""

    /// A batch of `count` records, keys `prefix-0…`, LZ4-compressed as the store writes them.
    static func batch(_ prefix: String, count: Int) throws -> EncodedBatch {
        var builder = RecordBatchBuilder()
        for index in 0..<count {
            builder.append(
                key: "\(prefix)-\(index)", value: Array("note \(index) of \(prefix): buy milk and bread".utf8),
                headers: [LogHeader(key: "event", string: "save")], timestamp: 1_700_000_000_000 + Int64(index))
        }
        return try builder.encode(compression: .lz4)
    }

    @Test("appended batches come back byte for byte as Kafka v2 batches at dense offsets")
    func roundTrip() async throws {
        try await PostgresLog.withLog(at: url, database: TestPostgres.freshDatabase()) { log in
            try await log.createZone("Notes")
            try await log.createZone("Notes")  // creating again changes nothing
            #expect(try await log.endOffset(of: "Notes") == 0)
            let sizes = [3, 1, 5]
            var expected: [[UInt8]] = []
            for (index, size) in sizes.enumerated() {
                let end = try await log.endOffset(of: "Notes")
                let batch = try Self.batch("b\(index)", count: size)
                let offsets = try await log.append(batch, to: "Notes", at: end)
                #expect(offsets == end..<end + Int64(size))
                var stored = batch.bytes
                for byte in 0..<8 { stored[byte] = UInt8(truncatingIfNeeded: end >> (56 - 8 * byte)) }
                expected.append(stored)
            }
            #expect(try await log.endOffset(of: "Notes") == 9)
            let batches = try await log.batches(of: "Notes", from: 0)
            #expect(batches.map { Array($0.bytes) } == expected)
            let records = try batches.flatMap { try $0.records() }
            #expect(records.map(\.offset) == Array(0..<9))
            #expect(records.map { String(decoding: $0.key ?? [], as: UTF8.self) } == ["b0-0", "b0-1", "b0-2", "b1-0", "b2-0", "b2-1", "b2-2", "b2-3", "b2-4"])
            // From an offset inside a batch: that batch first.
            #expect(try await log.batches(of: "Notes", from: 5).map(\.header.baseOffset) == [4])
            #expect(try await log.batches(of: "Notes", from: 9).isEmpty)
        }
    }

    @Test("an append planned at a stale end is refused by the fence and writes nothing")
    func fence() async throws {
        try await PostgresLog.withLog(at: url, database: TestPostgres.freshDatabase()) { log in
            try await log.createZone("Notes")
            _ = try await log.append(try Self.batch("first", count: 2), to: "Notes", at: 0)
            do {
                _ = try await log.append(try Self.batch("late", count: 1), to: "Notes", at: 0)
                Issue.record("a stale append must be refused")
            } catch let error as PostgresLogError {
                #expect(error.kind == .fenced(expectedEnd: 0, actualEnd: 2))
            }
            do {
                _ = try await log.append(try Self.batch("ahead", count: 1), to: "Notes", at: 5)
                Issue.record("an append past the end must be refused")
            } catch let error as PostgresLogError {
                #expect(error.kind == .fenced(expectedEnd: 5, actualEnd: 2))
            }
            #expect(try await log.endOffset(of: "Notes") == 2)
            #expect(try await log.batches(of: "Notes", from: 0).count == 1)
        }
    }

    @Test("two writers racing on one zone never use an offset twice: every append lands once, dense, or is refused")
    func racingWriters() async throws {
        let database = TestPostgres.freshDatabase()
        let perWriter = 60
        let refusals = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in ["a", "b"] {
                group.addTask {
                    // Each writer has a client (a pool of connections) of its own, as two nodes do.
                    try await PostgresLog.withLog(at: url, database: database) { log in
                        try await log.createZone("Notes")
                        var refused = 0
                        var written = 0
                        while written < perWriter {
                            let end = try await log.endOffset(of: "Notes")
                            do {
                                _ = try await log.append(try Self.batch("\(writer)\(written)", count: 1 + written % 3), to: "Notes", at: end)
                                written += 1
                            } catch let error as PostgresLogError {
                                guard case .fenced = error.kind else { throw error }
                                refused += 1
                            }
                        }
                        return refused
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        try await PostgresLog.withLog(at: url, database: database) { log in
            let batches = try await log.batches(of: "Notes", from: 0, maxBytes: .max)
            #expect(batches.count == 2 * perWriter)
            let records = try batches.flatMap { try $0.records() }
            #expect(records.map(\.offset) == Array(0..<Int64(records.count)))
            #expect(try await log.endOffset(of: "Notes") == Int64(records.count))
            // Every batch once: its first key names the writer and its sequence number.
            let firstKeys = try batches.map { String(decoding: try $0.records()[0].key ?? [], as: UTF8.self) }
            #expect(Set(firstKeys).count == 2 * perWriter)
        }
        // Not asserted: how often the race was lost (it depends on the scheduler).
        _ = refusals
    }

    @Test("a batch that is not one whole Kafka v2 batch at the zone's end is refused, and nothing is written")
    func malformed() async throws {
        try await PostgresLog.withLog(at: url, database: TestPostgres.freshDatabase()) { log in
            try await log.createZone("Notes")
            let batch = try Self.batch("x", count: 2)
            var wrongBase = batch.bytes
            wrongBase[7] = 9
            var flipped = batch.bytes
            flipped[flipped.count - 1] ^= 0xFF
            for bytes in [Array(batch.bytes.prefix(30)), Array(batch.bytes.dropLast()), wrongBase, flipped, batch.bytes + [0]] {
                do {
                    _ = try await log.append(bytes: bytes, to: "Notes", at: 0)
                    Issue.record("a malformed batch must be refused")
                } catch let error as PostgresLogError {
                    guard case .malformedBatch = error.kind else {
                        Issue.record("expected malformedBatch, got \(error)")
                        continue
                    }
                }
            }
            #expect(try await log.endOffset(of: "Notes") == 0)
            #expect(try await log.batches(of: "Notes", from: 0).isEmpty)
            await #expect(throws: PostgresLogError(.unknownZone, database: log.database, zone: "Nowhere")) {
                _ = try await log.append(batch, to: "Nowhere", at: 0)
            }
        }
    }
}
