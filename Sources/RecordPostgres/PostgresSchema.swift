import Logging
import PostgresNIO

/// The tables a PostgreSQL-backed database lives in (FORMAT.md §16 gives every column):
///
/// - `recordlog_zones`: one row per zone of a database — its **head**, `end_offset`, the offset
///   the zone's next record gets, and what compaction did (`compacted_through`, `expiry_offset`,
///   `drop_sequence`). The fence compares and moves them.
/// - `recordlog_batches`: one row per commit — the Kafka v2 batch, unchanged (its base offset
///   field is `base_offset`), with the offsets it holds.
/// - `recordlog_tokens`: one row per database of a cluster — the SHA-256 digest of its access
///   token (recordlog-server's `tokens` file, as rows).
enum PostgresSchema {
    /// Creates the tables when missing. Several nodes may start at once: a transaction-scoped
    /// advisory lock makes the creations take turns (`CREATE TABLE IF NOT EXISTS` alone races
    /// on PostgreSQL's catalog).
    static func create(on client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS recordlog_zones (
                    database text NOT NULL,
                    zone text NOT NULL,
                    end_offset bigint NOT NULL CHECK (end_offset >= 0),
                    generation bigint NOT NULL,
                    PRIMARY KEY (database, zone)
                )
                """, logger: logger)
            // Added with compaction: a head written before has compacted nothing.
            try await connection.query(
                "ALTER TABLE recordlog_zones ADD COLUMN IF NOT EXISTS compacted_through bigint NOT NULL DEFAULT 0", logger: logger)
            try await connection.query(
                "ALTER TABLE recordlog_zones ADD COLUMN IF NOT EXISTS expiry_offset bigint NOT NULL DEFAULT 0", logger: logger)
            try await connection.query(
                "ALTER TABLE recordlog_zones ADD COLUMN IF NOT EXISTS drop_sequence bigint NOT NULL DEFAULT 0", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS recordlog_batches (
                    database text NOT NULL,
                    zone text NOT NULL,
                    base_offset bigint NOT NULL CHECK (base_offset >= 0),
                    last_offset bigint NOT NULL CHECK (last_offset >= base_offset),
                    batch bytea NOT NULL,
                    PRIMARY KEY (database, zone, base_offset),
                    FOREIGN KEY (database, zone) REFERENCES recordlog_zones (database, zone) ON DELETE CASCADE
                )
                """, logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS recordlog_tokens (
                    database text PRIMARY KEY,
                    digest bytea NOT NULL CHECK (length(digest) = 32)
                )
                """, logger: logger)
        }
    }

    /// The advisory lock the creation takes: "RLSCHEMA" in ASCII, a constant of this module.
    static let lockKey: Int64 = 0x524C_5343_4845_4D41
}
