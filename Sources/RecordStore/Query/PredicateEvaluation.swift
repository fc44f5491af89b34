/// Evaluates predicates against records. (Filled in by the query engine.)
enum PredicateEvaluation {
    static func matches(_ predicate: QueryPredicate, _ record: Record) -> Bool {
        guard let value = record[predicate.key] else { return false }
        switch predicate.comparison {
        case .equals: return value == predicate.value
        case .notEquals: return value != predicate.value
        default: return false
        }
    }
}
