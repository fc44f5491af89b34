/// Checks a query before it runs, so a malformed one fails with a message saying what to fix
/// instead of silently matching nothing.
enum QueryValidation {
    static func validate(_ query: RecordQuery, resultsLimit: Int) throws(RecordStoreError) {
        guard resultsLimit >= 0 else {
            throw invalid("resultsLimit is \(resultsLimit); ask for a number of results per page, or 0 for as many as possible.")
        }
        guard Record.isValidFieldKey(query.recordType) else {
            throw invalid(
                "Record type \"\(query.recordType)\" is not a valid record type name; use the type your records were saved with, like \"Note\".")
        }
        for predicate in query.predicates { try validate(predicate) }
        for descriptor in query.sortDescriptors {
            try validateKey(descriptor.key, use: "sort on")
            if let location = descriptor.relativeLocation, !location.isValid {
                throw invalid("The sort on \"\(descriptor.key)\" measures distances from an invalid location (\(location.latitude), \(location.longitude)).")
            }
        }
    }

    static func validateKey(_ key: String, use: String) throws(RecordStoreError) {
        guard SystemQueryKeys.contains(key) || Record.isValidFieldKey(key) else {
            throw invalid(
                "Cannot \(use) \"\(key)\": it is neither a valid field key nor a system key "
                    + "(\(SystemQueryKeys.all.sorted().joined(separator: ", "))). Use the field's key as saved.")
        }
    }

    static func validate(_ predicate: QueryPredicate) throws(RecordStoreError) {
        let value = predicate.value
        let kind = value.kind
        let name = "\(predicate.comparison.rawValue) on \"\(predicate.key)\""
        switch predicate.comparison {
        case .tokenMatch, .truePredicate, .falsePredicate:
            guard predicate.key == QueryPredicate.tokenSearchKey else {
                throw invalid(
                    "\(predicate.comparison.rawValue) applies to the whole record: its key must be \"\(QueryPredicate.tokenSearchKey)\" "
                        + "(CloudKit's self), not \"\(predicate.key)\".")
            }
        case .allTokensMatch:
            guard predicate.key == QueryPredicate.allTokensKey else {
                throw invalid("allTokensMatch searches every string field: its key must be \"\(QueryPredicate.allTokensKey)\", not \"\(predicate.key)\".")
            }
        default:
            try validateKey(predicate.key, use: "filter on")
        }
        switch predicate.comparison {
        case .equals, .notEquals:
            break
        case .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals:
            guard [.string, .int64, .double, .date].contains(kind) else {
                throw invalid("\(name) compares with a \(kind) value, which has no order; compare strings, numbers or dates, or use equals.")
            }
            if case .double(let double) = value, double.isNaN {
                throw invalid("\(name) compares with NaN, which no number is less or greater than; use a number.")
            }
        case .in:
            guard case .list(let values) = value, !values.contains(where: { $0.kind == .list }) else {
                throw invalid("\(name) needs a list of candidate values, like .list([.string(\"a\"), .string(\"b\")]); got a \(kind).")
            }
        case .beginsWith:
            guard kind == .string else {
                throw invalid("\(name) needs a string prefix, got a \(kind); beginsWith applies to string fields only.")
            }
        case .listContains:
            guard kind != .list else {
                throw invalid("\(name) needs the element to look for, not a list; to match any of several, use one query per element.")
            }
        case .tokenMatch, .allTokensMatch:
            guard case .string(let text) = value, !TextTokens.searchTokens(of: text).isEmpty else {
                throw invalid(
                    "\(predicate.comparison.rawValue) needs a string with at least one word to search for, besides stopwords like \"the\"; "
                        + "got \(value.kind == .string ? "none" : "a \(kind)").")
            }
        case .withinDistance:
            guard case .location(let center) = value, center.isValid, let meters = predicate.distance, meters.isFinite, meters >= 0 else {
                throw invalid(
                    "\(name) needs a valid center location and a finite radius in meters of 0 or more; build it with "
                        + "QueryPredicate.distanceToLocation(_:fromLocation:lessThan:).")
            }
        case .truePredicate, .falsePredicate:
            break
        }
        if SystemQueryKeys.contains(predicate.key), predicate.comparison != .in, kind != .date {
            throw invalid("\(name) compares a system date with a \(kind) value; compare it with a .date.")
        }
    }

    private static func invalid(_ message: String) -> RecordStoreError {
        RecordStoreError(.invalidArguments, message)
    }
}
