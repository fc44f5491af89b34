/// Why PostgreSQL did not take a batch or could not serve a read.
package struct PostgresLogError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The fence refused the append: the zone's end is no longer the one the batch was
        /// planned against (another writer appended first). Nothing was written; catch up from
        /// `actualEnd` and plan again.
        case fenced(expectedEnd: Int64, actualEnd: Int64?)
        /// The bytes are not one Kafka v2 batch, or not a batch that starts at the zone's end.
        case malformedBatch(String)
        /// The zone has no head row: it was never created in this database.
        case unknownZone
        /// A row read back is not what the writer stored (a batch that does not parse, offsets
        /// that do not follow): the table was changed behind the log's back.
        case corruptRow(String)
        /// The location is not a `postgres://` URL the client can use.
        case badLocation(String)
    }

    package var kind: Kind
    package var database: String
    package var zone: String

    package init(_ kind: Kind, database: String, zone: String) {
        self.kind = kind
        self.database = database
        self.zone = zone
    }

    package var description: String {
        let place = "zone \(zone) of database \(database)"
        switch kind {
        case .fenced(let expected, let actual):
            return "The append to \(place) was planned at offset \(expected), but the zone now ends at \(actual.map(String.init) ?? "an unknown offset"): another writer appended first. Nothing was written; catch up and plan again."
        case .malformedBatch(let reason):
            return "The batch for \(place) was refused: \(reason)."
        case .unknownZone:
            return "There is no \(place) in PostgreSQL."
        case .corruptRow(let reason):
            return "A row of \(place) is not what the log stored: \(reason)."
        case .badLocation(let reason):
            return "The PostgreSQL location is not usable: \(reason)."
        }
    }
}
