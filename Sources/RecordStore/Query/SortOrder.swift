/// Where a record falls in a query's order: its sort values, then its zone and record name, so
/// that no two records share a position and the order is total.
struct SortPosition: Sendable, Hashable {
    var values: [OrderedValue]
    var zoneName: ByteString
    var recordName: ByteString
}

/// A query's total order: the sort descriptors in turn (a missing field is the smallest value, so
/// it comes first ascending and last descending — see ``OrderedValue``), then zone name and
/// record name, both ascending by UTF-8 bytes.
struct SortOrder: Sendable {
    let descriptors: [QuerySortDescriptor]

    func position(of record: Record) -> SortPosition {
        SortPosition(
            values: descriptors.map { OrderedValue(Self.value(of: record, for: $0)) },
            zoneName: ByteString(record.recordID.zoneID.zoneName),
            recordName: ByteString(record.recordID.recordName))
    }

    /// What `record` sorts by under `descriptor`: its value at the key, or for a descriptor with a
    /// relative location, the field's distance from it in meters (nil without a location there).
    static func value(of record: Record, for descriptor: QuerySortDescriptor) -> FieldValue? {
        let value = record.queryValue(forKey: descriptor.key)
        guard let center = descriptor.relativeLocation else { return value }
        guard case .location(let location)? = value else { return nil }
        return .double(location.distance(from: center))
    }

    /// Whether `lhs` comes strictly before `rhs`.
    func precedes(_ lhs: SortPosition, _ rhs: SortPosition) -> Bool {
        for (index, descriptor) in descriptors.enumerated() where lhs.values[index] != rhs.values[index] {
            return descriptor.ascending ? lhs.values[index] < rhs.values[index] : rhs.values[index] < lhs.values[index]
        }
        if lhs.zoneName != rhs.zoneName { return lhs.zoneName < rhs.zoneName }
        return lhs.recordName < rhs.recordName
    }
}
