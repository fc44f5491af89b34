/// Evaluates predicates against records, with the semantics documented on ``QueryPredicate``,
/// shared by every query path (indexed or not) through ``OrderedValue``.
enum PredicateEvaluation {
    static func matches(_ predicate: QueryPredicate, _ record: Record) -> Bool {
        CompiledPredicate(predicate).matches(record)
    }
}

/// A predicate prepared for evaluation against many records: its value converted once.
struct CompiledPredicate: Sendable {
    enum Test: Sendable {
        case equals(OrderedValue)
        case notEquals(OrderedValue)
        /// `equals` / `notEquals` (`negated`) on a string: case-insensitive, against the folded text.
        case text(folded: String, negated: Bool)
        case ordered(QueryPredicate.Comparison, OrderedValue)
        case oneOf(Set<OrderedValue>)
        case beginsWith(String)
        case listContains(OrderedValue)
        /// Full-text search: any of the words, or (`all`) every one.
        case tokens(Set<String>, all: Bool)
        case within(Location, meters: Double)
        case constant(Bool)
    }

    let key: String
    let test: Test

    init(_ predicate: QueryPredicate) {
        key = predicate.key
        let value = OrderedValue(predicate.value)
        switch predicate.comparison {
        case .equals, .notEquals:
            if case .string(let text) = predicate.value {
                test = .text(folded: Self.fold(text), negated: predicate.comparison == .notEquals)
            } else {
                test = predicate.comparison == .equals ? .equals(value) : .notEquals(value)
            }
        case .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals: test = .ordered(predicate.comparison, value)
        case .in:
            if case .list(let values) = predicate.value { test = .oneOf(Set(values.map { OrderedValue($0) })) } else { test = .oneOf([]) }
        case .beginsWith:
            if case .string(let prefix) = predicate.value { test = .beginsWith(prefix) } else { test = .oneOf([]) }
        case .listContains: test = .listContains(value)
        case .tokenMatch, .allTokensMatch:
            if case .string(let text) = predicate.value {
                test = .tokens(Set(TextTokens.searchTokens(of: text)), all: predicate.comparison == .allTokensMatch)
            } else {
                test = .oneOf([])
            }
        case .withinDistance:
            if case .location(let center) = predicate.value, let meters = predicate.distance {
                test = .within(center, meters: meters)
            } else {
                test = .oneOf([])
            }
        case .truePredicate: test = .constant(true)
        case .falsePredicate: test = .constant(false)
        }
    }

    /// A string as case-insensitive equality compares it.
    static func fold(_ text: String) -> String { text.lowercased() }

    /// The error the query fails with when this predicate meets `record`: `listContains`
    /// (CloudKit's `CONTAINS`) on a field holding a string, which CloudKit refuses rather than
    /// answer as no match.
    func refusal(_ record: Record) -> RecordStoreError? {
        guard case .listContains = test, case .string? = record.queryValue(forKey: key) else { return nil }
        return RecordStoreError(
            .invalidArguments,
            "listContains (CONTAINS) on \"\(key)\" tests list membership, but record \(record.recordID) holds a string there. "
                + "Compare strings with equals or beginsWith, or search their words with tokenMatch (self CONTAINS).")
    }

    func matches(_ record: Record) -> Bool {
        switch test {
        case .tokens(let wanted, let all):
            let tokens = TextTokens.tokens(of: record)
            return all ? wanted.isSubset(of: tokens) : !wanted.isDisjoint(with: tokens)
        case .constant(let result):
            return result
        default:
            break
        }
        guard let field = record.queryValue(forKey: key) else { return false }
        if case .text(let folded, let negated) = test {
            guard case .string(let string) = field else { return false }
            return Self.fold(string).hasSameUTF8(as: folded) != negated
        }
        if case .within(let center, let meters) = test {
            guard case .location(let location) = field else { return false }
            return location.distance(from: center) < meters
        }
        let value = OrderedValue(field)
        switch test {
        case .equals(let expected): return value == expected
        case .notEquals(let other): return value.isSameKind(as: other) && value != other
        case .ordered(let comparison, let bound):
            guard value.family == bound.family else { return false }
            switch comparison {
            case .lessThan: return value < bound
            case .lessThanOrEquals: return value <= bound
            case .greaterThan: return value > bound
            default: return value >= bound
            }
        case .oneOf(let values): return values.contains(value)
        case .beginsWith(let prefix):
            guard case .string(let string) = value else { return false }
            return string.hasBytePrefix(prefix)
        case .listContains(let element):
            guard case .list(let elements) = value else { return false }
            return elements.contains(element)
        case .text, .within, .tokens, .constant: return false
        }
    }
}
