import Logging

// Logging a typed query and what it returned, for `debug()`.
extension Query {
    /// Logs this query when it runs, and what it returned (record names, failures, whether more
    /// pages follow), through swift-log.
    ///
    /// ```swift
    /// let page = try await Query<Note>().filter(.title, beginsWith: "A").debug().fetch(from: database)
    /// // info RecordStore.Query: query Note where title beginsWith "A", limit 100
    /// // info RecordStore.Query: query Note returned 2 records: n1, n7; more: no
    /// ```
    ///
    /// - Parameters:
    ///   - logger: where to log; by default `Logger(label: "RecordStore.Query")`, which goes
    ///     wherever the app bootstrapped swift-log.
    ///   - level: the level of the messages, `.info` by default so they show with the default handler.
    public func debug(to logger: Logger = Logger(label: "RecordStore.Query"), level: Logger.Level = .info) -> Self {
        var query = self
        query.debugLogger = logger
        query.debugLevel = level
        return query
    }

    func logStart(_ query: RecordQuery, zone: ZoneID?, continuing: Bool = false) {
        guard let debugLogger else { return }
        let action = continuing ? "continuing query" : "query"
        debugLogger.log(
            level: debugLevel, "\(action) \(QueryDescription.describe(query)), limit \(resultsLimit)",
            metadata: [
                "zone": "\(zone.map(String.init(describing:)) ?? "all")",
                "desiredKeys": .array(Model.desiredKeys.map { .string($0) }),
            ])
    }

    func logged(_ result: TypedQueryResult<Model>) -> TypedQueryResult<Model> {
        guard let debugLogger else { return result }
        let names = result.matchResults.map(\.id.recordName)
        let failures = result.failures
        var message = "query \(Model.recordType) returned \(names.count) record\(names.count == 1 ? "" : "s")"
        if !names.isEmpty { message += ": " + names.joined(separator: ", ") }
        if !failures.isEmpty { message += "; \(failures.count) failed" }
        message += "; more: \(result.cursor == nil ? "no" : "yes")"
        debugLogger.log(level: debugLevel, "\(message)")
        for failure in failures {
            debugLogger.log(level: debugLevel, "record \(failure.id) failed: \(failure.error)")
        }
        return result
    }

    func logFailure(_ error: any Error) {
        debugLogger?.log(level: debugLevel, "query \(Model.recordType) failed: \(error)")
    }
}

/// Short, readable renderings of queries and values for logs.
enum QueryDescription {
    static func describe(_ query: RecordQuery) -> String {
        var text = query.recordType
        if !query.predicates.isEmpty {
            text += " where " + query.predicates.map(describe).joined(separator: " and ")
        }
        if !query.sortDescriptors.isEmpty {
            text += " sorted by "
                + query.sortDescriptors.map { "\($0.key) \($0.ascending ? "ascending" : "descending")" }.joined(separator: ", ")
        }
        return text
    }

    static func describe(_ predicate: QueryPredicate) -> String {
        switch predicate.comparison {
        case .tokenMatch: return "any word of \(describe(predicate.value))"
        case .allTokensMatch: return "every word of \(describe(predicate.value))"
        case .truePredicate: return "TRUEPREDICATE"
        case .falsePredicate: return "FALSEPREDICATE"
        case .withinDistance: return "\(predicate.key) within \(predicate.distance ?? 0) m of \(describe(predicate.value))"
        default: break
        }
        return "\(predicate.key) \(predicate.comparison.rawValue) \(describe(predicate.value))"
    }

    static func describe(_ value: FieldValue) -> String {
        switch value {
        case .string(let string): "\"\(string)\""
        case .int64(let integer): "\(integer)"
        case .double(let double): "\(double)"
        case .bool(let bool): "\(bool)"
        case .date(let date): MillisecondDate.describe(date)
        case .bytes(let bytes): "\(bytes.count) bytes"
        case .reference(let reference): "→\(reference.recordID)"
        case .location(let location): "(\(location.latitude), \(location.longitude))"
        case .list(let elements): "[" + elements.map(describe).joined(separator: ", ") + "]"
        }
    }
}
