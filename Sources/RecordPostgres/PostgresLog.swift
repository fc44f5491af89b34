import Logging
import NIOCore
import PostgresNIO
import RecordLog

/// A database's zones as rows of PostgreSQL: each commit one row holding its unchanged Kafka v2
/// batch, each zone one head row holding its end offset — the log that every recordlog-server
/// node of a cluster shares, replicated by PostgreSQL.
///
/// Writes are **fenced**: an append names the end offset it was planned against, and PostgreSQL
/// takes it only if that is still the zone's end — one statement moves the head and inserts the
/// batch, so a writer that lost a race (another node appended first) or was partitioned away
/// is refused, never interleaved, and leaves nothing behind:
///
/// ```swift
/// try await PostgresLog.withLog(at: "postgres://recordlog@127.0.0.1:5432/recordlog", database: "notes") { log in
///     try await log.createZone("Notes")
///     let end = try await log.endOffset(of: "Notes")
///     let offsets = try await log.append(batch, to: "Notes", at: end)   // or .fenced: catch up, replan
///     let rows = try await log.batches(of: "Notes", from: 0)
/// }
/// ```
///
/// A batch is acknowledged when PostgreSQL's commit is (with a synchronous standby: when the
/// standby has it too). Offsets are dense per zone, as in a segment file.
///
/// Concurrency: the log holds a `PostgresClient`, a pool of connections that is `Sendable`;
/// every method is one statement (or one transaction) on a leased connection, so any number of
/// tasks and nodes may call them at once — the fence orders the appends.
package final class PostgresLog: Sendable {
    /// The database (a RecordLog database: a store's name) whose zones this log holds.
    package let database: String
    let client: PostgresClient
    let logger: Logger

    /// A log of `database` over `client`, which the caller runs (`client.run()`).
    package init(client: PostgresClient, database: String, logger: Logger = Logger(label: "RecordPostgres")) {
        self.client = client
        self.database = database
        self.logger = logger
    }

    /// Runs `body` with a log of `database` at `url`: starts a client, creates the tables when
    /// missing, and stops the client when `body` returns or throws.
    ///
    /// - Parameter connections: the most connections the client opens at once (PostgreSQL's
    ///   `max_connections`, 100 by default, bounds them across every node).
    package static func withLog<Result: Sendable>(
        at url: String, database: String, connections: Int = 20, logger: Logger = Logger(label: "RecordPostgres"),
        _ body: (PostgresLog) async throws -> Result
    ) async throws -> Result {
        var configuration = try PostgresLocation(url: url).configuration
        configuration.options.maximumConnections = max(1, connections)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await PostgresSchema.create(on: client, logger: logger)
            return try await body(PostgresLog(client: client, database: database, logger: logger))
        }
    }

    /// Creates the zone's head at offset 0 in `generation`; a zone that exists is left as it is
    /// (in whatever generation it has: an append in another one is refused).
    package func createZone(_ zone: String, generation: Int64 = 0) async throws {
        try await client.query(
            "INSERT INTO recordlog_zones (database, zone, end_offset, generation) VALUES (\(database), \(zone), 0, \(generation)) ON CONFLICT DO NOTHING",
            logger: logger)
    }

    /// Removes the zone: its head and every batch, in one statement (the batches go with
    /// their head). A writer of it is refused from then on.
    package func deleteZone(_ zone: String) async throws {
        try await client.query("DELETE FROM recordlog_zones WHERE database = \(database) AND zone = \(zone)", logger: logger)
    }

    /// One zone's head: where it ends, the generation it was created in, and what compaction
    /// did to its rows (FORMAT.md §14.5).
    package struct Head: Sendable, Equatable {
        package var endOffset: Int64
        package var generation: Int64
        /// Where its last compaction ended; 0: never compacted.
        package var compactedThrough: Int64 = 0
        /// Deletes were dropped below this offset (FORMAT.md §11.1's expiry offset).
        package var expiryOffset: Int64 = 0
        /// Twice the number of compactions that dropped deletes: a change token's drop stamp.
        package var dropSequence: Int64 = 0
    }

    /// Every zone's head, read at one instant (one statement).
    package func heads() async throws -> [String: Head] {
        let rows = try await client.query(
            """
            SELECT zone, end_offset, generation, compacted_through, expiry_offset, drop_sequence
            FROM recordlog_zones WHERE database = \(database)
            """, logger: logger)
        var heads: [String: Head] = [:]
        for try await (zone, end, generation, compacted, expiry, drops) in rows.decode((String, Int64, Int64, Int64, Int64, Int64).self) {
            heads[zone] = Head(endOffset: end, generation: generation, compactedThrough: compacted, expiryOffset: expiry, dropSequence: drops)
        }
        return heads
    }

    /// Replaces the zone's rows in `start..<end` with `batches` — a compaction's cleaned
    /// batches, which must hold exactly those offsets, one after another — in one transaction,
    /// fenced as an append is (FORMAT.md §14.5): only while the zone is of `generation`, reaches
    /// `end`, and was last compacted through `compactedThrough` (no other compaction came
    /// between the read of its rows and this, as `head` says), which becomes `end`. `start` must
    /// be 0 or `compactedThrough` (where a row starts). Other rows are left as they are. When
    /// the cleaning dropped deletes, `droppedDeletesBelow` is one past the newest: the head's
    /// expiry offset moves there and its drop sequence by 2.
    ///
    /// - Throws: ``PostgresLogError`` — `fenced` when another compaction came first or the zone
    ///   was deleted (nothing changed), `malformedBatch` when `batches` do not cover `start..<end`.
    package func replace(
        _ zone: String, from start: Int64 = 0, below end: Int64, with batches: [RecordBatch], head: Head, droppedDeletesBelow: Int64? = nil
    ) async throws {
        let (generation, compactedThrough) = (head.generation, head.compactedThrough)
        let expiry = max(head.expiryOffset, droppedDeletesBelow ?? 0)
        let drops = head.dropSequence + (droppedDeletesBelow == nil ? 0 : 2)
        guard start == 0 || start == compactedThrough else {
            throw PostgresLogError(.malformedBatch("a replacement from \(start), neither 0 nor \(compactedThrough)"), database: database, zone: zone)
        }
        var next = start
        for batch in batches {
            guard batch.header.baseOffset == next, batch.header.lastOffset >= next else {
                throw PostgresLogError(
                    .malformedBatch("a cleaned batch at \(batch.header.baseOffset)...\(batch.header.lastOffset) where \(next) was due"),
                    database: database, zone: zone)
            }
            next = batch.header.lastOffset + 1
        }
        guard next == end else {
            throw PostgresLogError(.malformedBatch("the cleaned batches end at \(next), not \(end)"), database: database, zone: zone)
        }
        let moved = try await client.withTransaction(logger: logger) { connection -> Bool in
            let fence = try await connection.query(
                """
                UPDATE recordlog_zones SET compacted_through = \(end), expiry_offset = \(expiry), drop_sequence = \(drops)
                WHERE database = \(database) AND zone = \(zone) AND generation = \(generation)
                  AND compacted_through = \(compactedThrough) AND drop_sequence = \(head.dropSequence) AND end_offset >= \(end)
                RETURNING end_offset
                """, logger: logger)
            var moved = false
            for try await _ in fence { moved = true }
            guard moved else { return false }
            try await connection.query(
                "DELETE FROM recordlog_batches WHERE database = \(database) AND zone = \(zone) AND base_offset >= \(start) AND base_offset < \(end)",
                logger: logger)
            try await insertRows(batches, zone: zone, on: connection)
            return true
        }
        guard moved else {
            let head = try await heads()[zone]
            throw PostgresLogError(
                .fenced(expectedEnd: end, actualEnd: head?.generation == generation ? head?.endOffset : nil), database: database, zone: zone)
        }
    }

    /// The zone's end: the offset its next record gets.
    ///
    /// - Throws: ``PostgresLogError`` (`unknownZone`).
    package func endOffset(of zone: String) async throws -> Int64 {
        let rows = try await client.query(
            "SELECT end_offset FROM recordlog_zones WHERE database = \(database) AND zone = \(zone)", logger: logger)
        for try await end in rows.decode(Int64.self) { return end }
        throw PostgresLogError(.unknownZone, database: database, zone: zone)
    }

    /// Appends one encoded batch at `expectedEnd`, the zone's end it was planned against: its
    /// records get `expectedEnd..<expectedEnd + n`. The batch's base offset field is set to
    /// `expectedEnd` (it is outside the batch's CRC), so the row holds the batch as a segment
    /// file would.
    ///
    /// - Throws: ``PostgresLogError`` — `fenced` when the zone's end is no longer
    ///   `expectedEnd` (nothing written), `malformedBatch`, `unknownZone`.
    package func append(_ batch: EncodedBatch, to zone: String, at expectedEnd: Int64, generation: Int64 = 0) async throws -> Range<Int64> {
        try await append(group: [batch], to: zone, at: expectedEnd, generation: generation)
    }

    /// Appends consecutive encoded batches — commits planned one after another from
    /// `expectedEnd` — in one fenced statement: each gets the offsets after the one before it,
    /// and each becomes its own row (FORMAT.md §14.2), or none does.
    ///
    /// - Throws: as ``append(_:to:at:generation:)``.
    package func append(group: [EncodedBatch], to zone: String, at expectedEnd: Int64, generation: Int64 = 0) async throws -> Range<Int64> {
        var next = expectedEnd
        var (bases, lasts, buffers) = ([Int64](), [Int64](), [ByteBuffer]())
        for batch in group {
            guard batch.bytes.count >= RecordBatchHeader.size, batch.recordCount > 0 else {
                throw PostgresLogError(.malformedBatch("a batch of \(batch.bytes.count) bytes and \(batch.recordCount) records"), database: database, zone: zone)
            }
            var buffer = ByteBuffer(bytes: batch.bytes)
            buffer.setInteger(next, at: 0)
            bases.append(next)
            next += Int64(batch.recordCount)
            lasts.append(next - 1)
            buffers.append(buffer)
        }
        guard !buffers.isEmpty else { return expectedEnd..<expectedEnd }
        let rows = try await client.execute(
            FencedAppendStatement(
                database: database, zone: zone, expectedEnd: expectedEnd, newEnd: next, baseOffsets: bases, lastOffsets: lasts,
                batches: buffers, generation: generation),
            logger: logger)
        var inserted = 0
        for try await _ in rows { inserted += 1 }
        if inserted == buffers.count { return expectedEnd..<next }
        // Refused: say where the zone stands now (or that it does not exist).
        guard let head = try await heads()[zone] else { throw PostgresLogError(.unknownZone, database: database, zone: zone) }
        throw PostgresLogError(
            .fenced(expectedEnd: expectedEnd, actualEnd: head.generation == generation ? head.endOffset : nil), database: database, zone: zone)
    }

    /// Appends one whole Kafka v2 batch whose base offset field already says `expectedEnd` (a
    /// batch copied from a segment file: an import).
    ///
    /// - Throws: as ``append(_:to:at:)``; `malformedBatch` also for a batch that does not
    ///   validate or whose base offset is not `expectedEnd`.
    package func append(bytes: [UInt8], to zone: String, at expectedEnd: Int64, generation: Int64 = 0) async throws -> Range<Int64> {
        let batch: RecordBatch
        do {
            batch = try RecordBatch(bytes: bytes[...])
        } catch {
            throw PostgresLogError(.malformedBatch("\(error)"), database: database, zone: zone)
        }
        let header = batch.header
        guard header.totalSize == bytes.count, header.baseOffset == expectedEnd, header.recordCount > 0, header.lastOffset >= expectedEnd else {
            throw PostgresLogError(
                .malformedBatch(
                    "a batch of \(header.recordCount) records at base offset \(header.baseOffset) in \(bytes.count) bytes is not one non-empty batch at \(expectedEnd)"),
                database: database, zone: zone)
        }
        return try await append(group: [EncodedBatch(stored: batch)], to: zone, at: expectedEnd, generation: generation)
    }

    /// Inserts `batches` as the zone's rows, a thousand per statement, on `connection` (inside
    /// the caller's transaction): each row's offsets are its batch header's.
    func insertRows(_ batches: [RecordBatch], zone: String, on connection: PostgresConnection) async throws {
        var first = 0
        while first < batches.count {
            let chunk = batches[first..<min(first + 1000, batches.count)]
            first += chunk.count
            let bases = chunk.map(\.header.baseOffset)
            let lasts = chunk.map(\.header.lastOffset)
            let buffers = chunk.map { ByteBuffer(bytes: $0.bytes) }
            try await connection.query(
                """
                INSERT INTO recordlog_batches (database, zone, base_offset, last_offset, batch)
                SELECT \(database), \(zone), r.base_offset, r.last_offset, r.batch
                FROM unnest(\(bases)::bigint[], \(lasts)::bigint[], \(buffers)::bytea[]) AS r (base_offset, last_offset, batch)
                """, logger: logger)
        }
    }

    /// The batches of several zones at once, each from its own offset on (the rows other nodes
    /// committed since a node last looked): one statement, whatever the number of zones.
    ///
    /// - Throws: ``PostgresLogError`` (`corruptRow`) for a row that is not the batch it says.
    package func batches(since offsets: [String: Int64]) async throws -> [String: [RecordBatch]] {
        guard !offsets.isEmpty else { return [:] }
        let zones = Array(offsets.keys)
        let starts = zones.map { offsets[$0] ?? 0 }
        let rows = try await client.query(
            """
            SELECT b.zone, b.base_offset, b.last_offset, b.batch
            FROM unnest(\(zones)::text[], \(starts)::bigint[]) AS wanted (zone, from_offset)
            JOIN recordlog_batches b ON b.database = \(database) AND b.zone = wanted.zone AND b.last_offset >= wanted.from_offset
            ORDER BY b.zone, b.base_offset
            """, logger: logger)
        var found: [String: [RecordBatch]] = [:]
        for try await (zone, base, last, buffer) in rows.decode((String, Int64, Int64, ByteBuffer).self) {
            let batch = try Self.batch(from: buffer, base: base, last: last, database: database, zone: zone)
            if let previous = found[zone]?.last, previous.header.lastOffset + 1 != base {
                throw PostgresLogError(.corruptRow("the batch at \(base) does not follow the one ending at \(previous.header.lastOffset)"), database: database, zone: zone)
            }
            found[zone, default: []].append(batch)
        }
        return found
    }

    /// A row's batch, checked against its columns.
    static func batch(from buffer: ByteBuffer, base: Int64, last: Int64, database: String, zone: String) throws -> RecordBatch {
        let bytes = Array(buffer.readableBytesView)
        let batch: RecordBatch
        do {
            batch = try RecordBatch(bytes: bytes[...])
        } catch {
            throw PostgresLogError(.corruptRow("the row at \(base) does not parse: \(error)"), database: database, zone: zone)
        }
        guard batch.header.baseOffset == base, batch.header.lastOffset == last, batch.bytes.count == bytes.count else {
            throw PostgresLogError(
                .corruptRow("the row at \(base)...\(last) holds a batch of \(batch.header.baseOffset)...\(batch.header.lastOffset)"),
                database: database, zone: zone)
        }
        return batch
    }

    /// The zone's batches holding offsets from `offset` on, in order, about `maxBytes` of them
    /// (always at least one when there is one), each checked as a Kafka v2 batch at its row's
    /// offsets.
    ///
    /// - Throws: ``PostgresLogError`` (`corruptRow`) for a row that is not the batch it says.
    package func batches(of zone: String, from offset: Int64, maxBytes: Int = 4 << 20) async throws -> [RecordBatch] {
        let rows = try await client.query(
            """
            SELECT base_offset, last_offset, batch FROM recordlog_batches
            WHERE database = \(database) AND zone = \(zone) AND last_offset >= \(offset)
            ORDER BY base_offset
            """, logger: logger)
        var batches: [RecordBatch] = []
        var total = 0
        for try await (base, last, buffer) in rows.decode((Int64, Int64, ByteBuffer).self) {
            guard batches.isEmpty || total < maxBytes else { break }
            let batch = try Self.batch(from: buffer, base: base, last: last, database: database, zone: zone)
            if let previous = batches.last, previous.header.lastOffset + 1 != base {
                throw PostgresLogError(
                    .corruptRow("the batch at \(base) does not follow the one ending at \(previous.header.lastOffset)"), database: database, zone: zone)
            }
            batches.append(batch)
            total += batch.bytes.count
        }
        return batches
    }
}
