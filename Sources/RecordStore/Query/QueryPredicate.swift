/// One condition on one field, as CloudKit's `NSPredicate` subset for `CKQuery`.
///
/// `key` is a field key, or the system key `creationDate` / `modificationDate` (which take
/// precedence over fields of the same name). How values compare:
/// - A record without the field matches no predicate on it, `notEquals` included.
/// - A value of another kind than the predicate's never matches (`"3" == 3` and `"3" != 3` are
///   both false) — except numbers: `int64` and `double` compare by value (`3 == 3.0`, `2 < 2.5`).
/// - `equals` and `notEquals` on a string compare **case-insensitively**, as CloudKit's `==` does
///   (`"Bob" == "bob"`; diacritics still count: `"é" != "e"`; otherwise by UTF-8 bytes, so
///   canonically equivalent but differently encoded strings differ). Other values compare as stored:
///   dates by millisecond, lists element by element (strings in them byte for byte), references
///   by record ID (not action). `in` compares each candidate as stored, strings byte for byte.
/// - `<`, `<=`, `>`, `>=` order strings by UTF-8 bytes (Unicode scalar order, case-sensitive),
///   numbers by value (NaN is neither less nor greater than anything), dates by time.
///
/// A comparison that cannot apply to its value (`beginsWith` on a number, `<` on a Boolean, `in`
/// without a list, ...) fails the query up front with `invalidArguments`; `listContains` (CloudKit's
/// `CONTAINS`, list membership) on a field that holds a string fails the query with
/// `invalidArguments` when it meets one, rather than matching nothing.
public struct QueryPredicate: Sendable, Hashable, Codable {
    public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
        /// The field holds the value (any kind; strings case-insensitively).
        case equals
        /// The field holds another value of the same kind (strings case-insensitively).
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
        /// A string field starts with a prefix (a `.string`), case-sensitively, byte for byte,
        /// as CloudKit's `BEGINSWITH`.
        case beginsWith
        /// A list field has an element equal to the value (not a list): CloudKit's `CONTAINS`
        /// on a list. On a string field it is an error (`invalidArguments`): search words with
        /// `tokenMatch`.
        case listContains
        /// Full-text search, CloudKit's `self CONTAINS "bob smith"`: the record has **any** word
        /// of the value (a `.string`) in one of its string fields, or in a string of a list
        /// field, case- and diacritic-insensitively ("creme" matches "Crème"), common English
        /// stopwords ("the", "and", …) ignored. Words are runs of letters and digits. The key
        /// must be `self` (``tokenSearchKey``).
        case tokenMatch
        /// Full-text search for **every** word of the value, CloudKit's
        /// `allTokens TOKENMATCHES[cdl] "bob smith"`, otherwise as `tokenMatch`. The key must be
        /// `allTokens` (``allTokensKey``).
        case allTokensMatch
        /// A location field lies less than ``QueryPredicate/distance`` meters from the value (a
        /// `.location`): CloudKit's `distanceToLocation:fromLocation:(key, center) < radius`.
        /// Build it with ``QueryPredicate/distanceToLocation(_:fromLocation:lessThan:)``.
        case withinDistance
        /// Every record matches: CloudKit's `TRUEPREDICATE` (``QueryPredicate/truePredicate``).
        case truePredicate
        /// No record matches: CloudKit's `FALSEPREDICATE` (``QueryPredicate/falsePredicate``).
        case falsePredicate
    }

    /// The key of `tokenMatch`, which searches the whole record: CloudKit's `self`.
    public static let tokenSearchKey = "self"
    /// The key of `allTokensMatch`: CloudKit's `allTokens`.
    public static let allTokensKey = "allTokens"

    /// CloudKit's `TRUEPREDICATE`: matches every record (as an empty predicate list does).
    public static let truePredicate = QueryPredicate(tokenSearchKey, .truePredicate, .bool(true))
    /// CloudKit's `FALSEPREDICATE`: matches no record.
    public static let falsePredicate = QueryPredicate(tokenSearchKey, .falsePredicate, .bool(false))

    /// CloudKit's `distanceToLocation:fromLocation:(key, location) < meters`: the location field
    /// `key` lies less than `meters` from `location` (great-circle distance on a sphere of
    /// 6,371 km).
    ///
    /// ```swift
    /// let near = QueryPredicate.distanceToLocation("place", fromLocation: Location(latitude: 48.85, longitude: 2.35), lessThan: 5_000)
    /// ```
    public static func distanceToLocation(_ key: String, fromLocation location: Location, lessThan meters: Double) -> QueryPredicate {
        var predicate = QueryPredicate(key, .withinDistance, .location(location))
        predicate.distance = meters
        return predicate
    }

    /// The field key or system key; `self` for `tokenMatch`, `truePredicate` and
    /// `falsePredicate`, `allTokens` for `allTokensMatch`.
    public var key: String
    /// How the field compares with `value`.
    public var comparison: Comparison
    /// What the field is compared with.
    public var value: FieldValue
    /// For `withinDistance`: the radius in meters; nil otherwise.
    public var distance: Double?

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
