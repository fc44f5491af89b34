/// One condition on one field, as CloudKit's NSPredicate subset.
///
/// `key` is a field key, or the system key `creationDate` / `modificationDate` (which take
/// precedence over fields of the same name). How values compare:
/// - A record without the field matches no predicate on it, `notEquals` included.
/// - A value of another kind than the predicate's never matches (`"3" == 3` and `"3" != 3` are
///   both false) — except numbers: `int64` and `double` compare by value (`3 == 3.0`, `2 < 2.5`).
/// - `equals` compares stored values: strings by UTF-8 bytes (so canonically equivalent but
///   differently encoded strings differ), dates by millisecond, lists element by element,
///   references by record ID (not action).
/// - `<`, `<=`, `>`, `>=` order strings by UTF-8 bytes (Unicode scalar order, case-sensitive),
///   numbers by value (NaN is neither less nor greater than anything), dates by time.
///
/// A comparison that cannot apply to its value (`beginsWith` on a number, `<` on a Boolean, `in`
/// without a list, ...) fails the query up front with `invalidArguments`.
public struct QueryPredicate: Sendable, Hashable, Codable {
    public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
        /// The field holds the value (any kind).
        case equals
        /// The field holds another value of the same kind.
        case notEquals
        /// The field is less than the value (a string, number or date).
        case lessThan
        /// The field is less than or equal to the value (a string, number or date).
        case lessThanOrEquals
        /// The field is greater than the value (a string, number or date).
        case greaterThan
        /// The field is greater than or equal to the value (a string, number or date).
        case greaterThanOrEquals
        /// The field's value is one of the values of a list (the predicate's value, a `.list`).
        case `in`
        /// A string field starts with a prefix (a `.string`), case-sensitively, byte for byte.
        case beginsWith
        /// A list field has an element equal to the value (not a list).
        case listContains
        /// Every word of the value (a `.string` with at least one word) is a word of one of the
        /// record's string fields, or of a string in a list field (`key` is ignored), case- and
        /// diacritic-insensitively, like CloudKit's `allTokens`: "creme brulee" matches
        /// "Crème Brûlée". Words are runs of letters and digits.
        case tokenMatch
    }

    /// The field key or system key (ignored by `tokenMatch`).
    public var key: String
    /// How the field compares with `value`.
    public var comparison: Comparison
    /// What the field is compared with.
    public var value: FieldValue

    /// A condition: the field `key` `comparison` `value`.
    public init(_ key: String, _ comparison: Comparison, _ value: FieldValue) {
        self.key = key
        self.comparison = comparison
        self.value = value
    }

    /// Whether `record` satisfies this condition.
    package func matches(_ record: Record) -> Bool {
        PredicateEvaluation.matches(self, record)
    }
}
