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
        case ordered(QueryPredicate.Comparison, OrderedValue)
        case oneOf(Set<OrderedValue>)
        case beginsWith(String)
        case listContains(OrderedValue)
        case tokens(Set<String>)
    }

    let key: String
    let test: Test

    init(_ predicate: QueryPredicate) {
        key = predicate.key
        let value = OrderedValue(predicate.value)
        switch predicate.comparison {
        case .equals: test = .equals(value)
        case .notEquals: test = .notEquals(value)
        case .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals: test = .ordered(predicate.comparison, value)
        case .in:
            if case .list(let values) = predicate.value { test = .oneOf(Set(values.map { OrderedValue($0) })) } else { test = .oneOf([]) }
        case .beginsWith:
            if case .string(let prefix) = predicate.value { test = .beginsWith(prefix) } else { test = .oneOf([]) }
        case .listContains: test = .listContains(value)
        case .tokenMatch:
            if case .string(let text) = predicate.value { test = .tokens(Set(TextTokens.tokens(of: text))) } else { test = .oneOf([]) }
        }
    }

    func matches(_ record: Record) -> Bool {
        if case .tokens(let wanted) = test { return wanted.isSubset(of: TextTokens.tokens(of: record)) }
        guard let field = record.queryValue(forKey: key) else { return false }
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
        case .tokens: return false
        }
    }
}
