import Foundation

/// Where a query's next page starts: the query, the zone searched, and the position (sort values
/// and record ID) of the last record returned. Opaque; store it as ``data`` and restore it with
/// ``init(data:)``.
///
/// The next page holds the matching records that come strictly after that position in the
/// query's order, as the store is when the page is fetched (keyset pagination). So a record that
/// did not change between pages is returned exactly once, whatever else is inserted, updated or
/// deleted meanwhile, the last returned record included. A record saved between pages appears in
/// a later page when its new position is after the cursor (even if an earlier page returned its
/// old version), and not at all when its new position is before the cursor; a record deleted
/// between pages is not returned.
public struct QueryCursor: Sendable, Hashable, Codable {
    /// The encoding version, so a cursor from a later format is refused, not misread.
    static let currentVersion = 1

    let version: Int
    let query: RecordQuery
    /// The zone searched; nil for every zone.
    let zoneID: ZoneID?
    /// The last returned record's value for each sort descriptor (nil: it had none).
    let lastValues: [FieldValue?]
    let lastRecordID: RecordID

    init(query: RecordQuery, zoneID: ZoneID?, last record: Record) {
        version = Self.currentVersion
        self.query = query
        self.zoneID = zoneID
        lastValues = query.sortDescriptors.map { SortOrder.value(of: record, for: $0) }
        lastRecordID = record.recordID
    }

    /// The position after which the next page starts.
    var position: SortPosition {
        SortPosition(
            values: lastValues.map { OrderedValue($0) },
            zoneName: ByteString(lastRecordID.zoneID.zoneName),
            recordName: ByteString(lastRecordID.recordName))
    }

    /// The cursor as bytes, to store and pass to ``init(data:)`` later.
    public var data: Data {
        // Encoding plain values with non-conforming floats spelled as strings cannot fail.
        (try? Self.encoder.encode(self)) ?? Data()
    }

    /// Restores a cursor from ``data``.
    ///
    /// - Throws: `invalidArguments` when the bytes are not a cursor.
    public init(data: Data) throws(RecordStoreError) {
        let decoded: QueryCursor
        do { decoded = try Self.decoder.decode(QueryCursor.self, from: data) } catch {
            throw Self.malformed("its bytes do not decode (\(error))")
        }
        guard decoded.version == Self.currentVersion else {
            throw Self.malformed("it has version \(decoded.version), this store reads version \(Self.currentVersion)")
        }
        guard decoded.lastValues.count == decoded.query.sortDescriptors.count else {
            throw Self.malformed("it holds \(decoded.lastValues.count) sort values for \(decoded.query.sortDescriptors.count) sort descriptors")
        }
        self = decoded
    }

    private static func malformed(_ reason: String) -> RecordStoreError {
        RecordStoreError(
            .invalidArguments,
            "This query cursor is malformed: \(reason). Pass the bytes of QueryCursor.data unchanged, or run the query again from the start.")
    }

    private static let floats = (positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: floats.positiveInfinity, negativeInfinity: floats.negativeInfinity, nan: floats.nan)
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: floats.positiveInfinity, negativeInfinity: floats.negativeInfinity, nan: floats.nan)
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }
}
