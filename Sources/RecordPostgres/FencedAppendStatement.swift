import NIOCore
import PostgresNIO

/// The fence and the insert (FORMAT.md §14.2) of a group of batches — one commit, or the commits
/// a node made while its previous group was on its way — as one prepared statement, which each
/// connection parses and plans once: the head moves from the first batch's base
/// offset to past the last batch, and every batch becomes its own row, or nothing happens.
struct FencedAppendStatement: PostgresPreparedStatement {
    static let name = "recordlog_fenced_append"
    static let sql = """
        WITH head AS (
            UPDATE recordlog_zones SET end_offset = $4
            WHERE database = $1 AND zone = $2 AND end_offset = $3 AND generation = $8
            RETURNING end_offset
        )
        INSERT INTO recordlog_batches (database, zone, base_offset, last_offset, batch)
        SELECT $1, $2, rows.base_offset, rows.last_offset, rows.batch
        FROM head, unnest($5::bigint[], $6::bigint[], $7::bytea[]) AS rows (base_offset, last_offset, batch)
        RETURNING base_offset
        """
    typealias Row = Int64

    var database: String
    var zone: String
    /// The zone's end the group was planned against: its first batch's base offset.
    var expectedEnd: Int64
    /// The zone's end after the group.
    var newEnd: Int64
    var baseOffsets: [Int64]
    var lastOffsets: [Int64]
    var batches: [ByteBuffer]
    var generation: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 8)
        bindings.append(database)
        bindings.append(zone)
        bindings.append(expectedEnd)
        bindings.append(newEnd)
        bindings.append(baseOffsets)
        bindings.append(lastOffsets)
        bindings.append(batches)
        bindings.append(generation)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Int64.self)
    }
}
