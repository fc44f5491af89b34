/// Checks a query before it runs, so a malformed one fails with a message saying what to fix
/// instead of silently matching nothing.
enum QueryValidation {
    static func validate(_ query: RecordQuery, resultsLimit: Int) throws(RecordStoreError) {
        guard resultsLimit > 0 else {
            throw invalid("resultsLimit is \(resultsLimit); ask for at least one result per page.")
        }
        guard Record.isValidFieldKey(query.recordType) else {
            throw invalid(
                "Record type \"\(query.recordType)\" is not a valid record type name; use the type your records were saved with, like \"Note\".")
        }
        for predicate in query.predicates { try validate(predicate) }
        for descriptor in query.sortDescriptors { try validateKey(descriptor.key, use: "sort on") }
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
        if predicate.comparison != .tokenMatch { try validateKey(predicate.key, use: "filter on") }
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
        case .tokenMatch:
            guard case .string(let text) = value, !TextTokens.tokens(of: text).isEmpty else {
                throw invalid("tokenMatch needs a string with at least one word to search for; got \(value.kind == .string ? "no word" : "a \(kind)").")
            }
        }
        if SystemQueryKeys.contains(predicate.key), predicate.comparison != .tokenMatch, predicate.comparison != .in, kind != .date {
            throw invalid("\(name) compares a system date with a \(kind) value; compare it with a .date.")
        }
    }

    private static func invalid(_ message: String) -> RecordStoreError {
        RecordStoreError(.invalidArguments, message)
    }
}
