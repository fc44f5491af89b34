/// One condition on one field, as CloudKit's NSPredicate subset.
public struct QueryPredicate: Sendable, Hashable, Codable {
    public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
        case equals, notEquals, lessThan, lessThanOrEquals, greaterThan, greaterThanOrEquals
        /// The field's value is one of the values of a list.
        case `in`
        /// A string field starts with a prefix.
        case beginsWith
        /// A list field contains a value.
        case listContains
        /// Every token of a string appears among the tokens of the record's string fields
        /// (`key` is ignored), case- and diacritic-insensitive, like CloudKit's `allTokens`.
        case tokenMatch
    }

    public var key: String
    public var comparison: Comparison
    public var value: FieldValue

    public init(_ key: String, _ comparison: Comparison, _ value: FieldValue) {
        self.key = key
        self.comparison = comparison
        self.value = value
    }

    /// Whether `record` satisfies this condition.
    public func matches(_ record: Record) -> Bool {
        PredicateEvaluation.matches(self, record)
    }
}
