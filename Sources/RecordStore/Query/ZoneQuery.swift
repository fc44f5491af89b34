/// Runs a query in one zone, from a snapshot of the zone's state: finds the matching records
/// after the cursor's position, in order, at most `wanted` of them.
///
/// The plan, cheapest first:
/// 1. an `equals` / `in` predicate on an indexed key: only the records the index lists under the
///    value(s) are read (the smallest such set when several predicates qualify);
/// 2. a first sort descriptor on an indexed key: the index is walked in order from the cursor's
///    value, one group of equal values at a time, stopping once `wanted` records matched;
/// 3. no sort descriptor: record names are sorted (no reads) and read in order until `wanted`
///    matched;
/// 4. otherwise every record of the type is read, filtered and sorted.
struct ZoneQuery {
    struct Hit {
        var position: SortPosition
        var record: Record
    }

    let zone: ZoneState
    let recordType: String
    let predicates: [CompiledPredicate]
    let equalityPredicates: [QueryPredicate]
    let order: SortOrder
    let after: SortPosition?
    let wanted: Int
    /// Records read from the log so far.
    private(set) var examined = 0
    private var reader: SavedRecordReader

    init(zone: ZoneState, query: RecordQuery, after: SortPosition?, wanted: Int) {
        self.zone = zone
        recordType = query.recordType
        predicates = query.predicates.map(CompiledPredicate.init)
        equalityPredicates = query.predicates.filter { $0.comparison == .equals || $0.comparison == .in }
        order = SortOrder(descriptors: query.sortDescriptors)
        self.after = after
        self.wanted = wanted
        reader = SavedRecordReader(partition: zone.partition, zoneID: zone.zoneID)
    }

    mutating func run() throws -> [Hit] {
        if let candidates = indexedCandidates() {
            return try readAll(Array(candidates))
        }
        if let first = order.descriptors.first, first.relativeLocation == nil,
            let index = zone.indexes.index(recordType: recordType, key: first.key)
        {
            return try walk(index, ascending: first.ascending)
        }
        let names = zone.records.names(ofType: recordType)
        if order.descriptors.isEmpty {
            // The order is by record name within the zone: read in that order, and stop early.
            var hits: [Hit] = []
            try readInNameOrder(names, values: [], into: &hits)
            return hits
        }
        return try readAll(names)
    }

    /// The names listed by the most selective indexed equality predicate, or nil when none is indexed.
    private func indexedCandidates() -> Set<String>? {
        var best: Set<String>?
        for predicate in equalityPredicates {
            guard let index = zone.indexes.index(recordType: recordType, key: predicate.key) else { continue }
            var names: Set<String>
            if case .list(let values) = predicate.value, predicate.comparison == .in {
                names = []
                for value in values { names.formUnion(index.names(holding: OrderedValue(value))) }
            } else if case .string(let text) = predicate.value {
                // Case-insensitive: every string value the index holds that folds to the same.
                names = index.names(holdingTextFoldedTo: CompiledPredicate.fold(text))
            } else {
                names = index.names(holding: OrderedValue(predicate.value))
            }
            if names.count < best?.count ?? .max { best = names }
        }
        return best
    }

    /// Reads every named record, keeps the matching ones after the cursor, sorted, at most `wanted`.
    private mutating func readAll(_ names: [String]) throws -> [Hit] {
        var hits = try read(names)
        hits.sort { order.precedes($0.position, $1.position) }
        return Array(hits.prefix(wanted))
    }

    /// The hits among `names`, unsorted. Read in log order, so each batch is decoded once.
    private mutating func read(_ names: [String]) throws -> [Hit] {
        var hits: [Hit] = []
        for name in zone.inLogOrder(names) { if let hit = try hit(name) { hits.append(hit) } }
        return hits
    }

    /// Reads `names`, whose records all have the sort values `values`, in order (by name, as
    /// the order breaks ties), skipping those not after the cursor without reading them, until
    /// `hits` holds `wanted`. Used when positions are known from the names alone. Names are read
    /// in chunks, each in log order: the first just large enough to fill the page, later ones
    /// doubling while the predicates reject records.
    private mutating func readInNameOrder(_ names: some Collection<String>, values: [OrderedValue], into hits: inout [Hit]) throws {
        let zoneName = ByteString(zone.zoneID.zoneName)
        var sorted = names.map(ByteString.init).sorted()
        if let after {
            sorted.removeAll { !order.precedes(after, SortPosition(values: values, zoneName: zoneName, recordName: $0)) }
        }
        var start = 0
        var chunk = wanted - hits.count
        while start < sorted.count, hits.count < wanted {
            let end = min(sorted.count, start + chunk)
            var found = try read(sorted[start..<end].map(\.value))
            found.sort { order.precedes($0.position, $1.position) }
            hits.append(contentsOf: found.prefix(wanted - hits.count))
            start = end
            chunk = min(chunk * 2, 4096)
        }
    }

    /// Walks an index of the first sort key in order, one group of equal values at a time.
    private mutating func walk(_ index: FieldIndex, ascending: Bool) throws -> [Hit] {
        let values = index.sortedValues
        let step = ascending ? 1 : -1
        var next = ascending ? 0 : values.count - 1
        if let start = after?.values.first {
            // The cursor's own group may hold records after it: start there.
            let bound = index.lowerBound(of: start)
            next = ascending || (bound < values.count && values[bound] == start) ? bound : bound - 1
        }
        var hits: [Hit] = []
        while values.indices.contains(next), hits.count < wanted {
            let names = index.names(holding: values[next])
            if order.descriptors.count == 1 {
                try readInNameOrder(names, values: [values[next]], into: &hits)
            } else {
                var group = try read(Array(names))
                group.sort { order.precedes($0.position, $1.position) }
                hits.append(contentsOf: group)
            }
            next += step
        }
        return Array(hits.prefix(wanted))
    }

    /// The record named `name` as a hit, if it is of the type, matches, and comes after the cursor.
    private mutating func hit(_ name: String) throws -> Hit? {
        guard let entry = zone.records[name], zone.records.recordType(of: entry) == recordType else { return nil }
        examined += 1
        let record = try reader.record(named: name, at: entry.offset)
        for predicate in predicates { if let refusal = predicate.refusal(record) { throw refusal } }
        guard predicates.allSatisfy({ $0.matches(record) }) else { return nil }
        let position = order.position(of: record)
        if let after, !order.precedes(after, position) { return nil }
        return Hit(position: position, record: record)
    }
}
