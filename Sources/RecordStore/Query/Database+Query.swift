extension Database {
    /// Finds the records of `query.recordType` that satisfy every predicate, in the query's sort
    /// order, one page at a time, as CloudKit's `records(matching:inZoneWith:desiredKeys:resultsLimit:)`.
    ///
    /// ```swift
    /// let query = RecordQuery(recordType: "Note", predicates: [.init("folder", .equals, .string("inbox"))],
    ///                   sortDescriptors: [QuerySortDescriptor(key: "modificationDate", ascending: false)])
    /// let page = try await database.records(matching: query, resultsLimit: 20)
    /// ```
    ///
    /// Records are ordered by the sort descriptors, then zone name, then record name (see
    /// ``QuerySortDescriptor``); predicate semantics are documented on ``QueryPredicate/Comparison``.
    /// Equality (`equals`, `in`) on a key with an index (``createIndex(recordType:key:)``) reads
    /// only the records the index lists; a first sort descriptor on an indexed key reads records
    /// in index order and stops once the page is full; any other query reads every record of the type.
    ///
    /// - Parameters:
    ///   - zoneID: the zone to search; nil for every zone.
    ///   - desiredKeys: the fields to return; nil for all, `[]` for system fields only.
    ///   - resultsLimit: the most records in the page; 0 for as many as possible (CloudKit's
    ///     `CKQueryOperation.maximumResults`): every match in one page.
    /// - Returns: the page, and a cursor for the next one when more records match. A zone with no
    ///   record of a type known elsewhere in the database answers an empty page.
    /// - Throws: `invalidArguments` for a malformed query, `zoneNotFound`, or `unknownItem` when no
    ///   record of the type was ever saved in any zone of the database.
    public func records(
        matching query: RecordQuery, inZoneWith zoneID: ZoneID? = nil, desiredKeys: [String]? = nil, resultsLimit: Int = 100
    ) async throws -> QueryResult {
        try checkOpen()
        try await refreshBeforeRead()
        try QueryValidation.validate(query, resultsLimit: resultsLimit)
        return try runQuery(query, zoneID: zoneID, after: nil, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
    }

    /// The next page of a query, after the last record of the page that returned `cursor`; see
    /// ``QueryCursor`` for how writes between pages show.
    ///
    /// - Throws: as ``records(matching:inZoneWith:desiredKeys:resultsLimit:)``.
    public func records(
        continuingMatchFrom cursor: QueryCursor, desiredKeys: [String]? = nil, resultsLimit: Int = 100
    ) async throws -> QueryResult {
        try checkOpen()
        try await refreshBeforeRead()
        try QueryValidation.validate(cursor.query, resultsLimit: resultsLimit)
        return try runQuery(cursor.query, zoneID: cursor.zoneID, after: cursor.position, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
    }

    private func runQuery(
        _ query: RecordQuery, zoneID: ZoneID?, after: SortPosition?, desiredKeys: [String]?, resultsLimit: Int
    ) throws -> QueryResult {
        let zones = try queryZones(zoneID)
        // A record type is the database's, as CloudKit's schema is, not a zone's.
        let known = state.withLock { state in state.zones.values.contains { $0.records.types.contains(query.recordType) } }
        guard known else { throw RecordStoreError.unknownRecordType(query.recordType) }
        let resultsLimit = resultsLimit == 0 ? Self.asManyAsPossible : min(resultsLimit, Self.asManyAsPossible)
        // One more than the page, to know whether another page follows.
        let wanted = min(resultsLimit, Int.max - 1) + 1
        var hits: [ZoneQuery.Hit] = []
        var examined = 0
        for zone in zones {
            var zoneQuery = ZoneQuery(zone: zone, query: query, after: after, wanted: wanted)
            hits.append(contentsOf: try zoneQuery.run())
            examined += zoneQuery.examined
        }
        let order = SortOrder(descriptors: query.sortDescriptors)
        hits.sort { order.precedes($0.position, $1.position) }
        let page = hits.prefix(resultsLimit)
        var result = QueryResult(
            matchResults: page.map { ($0.record.recordID, .success($0.record.keeping(desiredKeys))) },
            cursor: nil, recordsExamined: examined)
        if hits.count > resultsLimit, let last = page.last {
            result.cursor = QueryCursor(query: query, zoneID: zoneID, last: last.record)
        }
        return result
    }

    /// What a `resultsLimit` of 0 stands for: more results than any store holds, small enough
    /// that page arithmetic cannot overflow.
    static let asManyAsPossible = 1 << 40
}
