import Foundation

/// Dates as stored: whole milliseconds since 1970-01-01T00:00:00Z, rounded to the nearest,
/// between `Date.distantPast` (0001-01-01) and `Date.distantFuture` (4001-01-01). In that range a
/// `Double` holds a date to within microseconds, so milliseconds → `Date` → milliseconds is exact.
///
/// Two dates are the same stored value when they round to the same millisecond; values use that
/// for equality, so that equal values encode to equal bytes.
package enum MillisecondDate {
    /// `Date.distantPast` in milliseconds since 1970.
    package static let minimum: Int64 = -62_135_769_600_000
    /// `Date.distantFuture` in milliseconds since 1970.
    package static let maximum: Int64 = 64_092_211_200_000

    /// The nearest millisecond to `date`, or nil when the date is outside the stored range (or NaN).
    package static func milliseconds(of date: Date) -> Int64? {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        // Comparisons with NaN are false, so NaN fails this guard too.
        guard milliseconds >= Double(minimum), milliseconds <= Double(maximum) else { return nil }
        return Int64(milliseconds)
    }

    /// The date of `milliseconds`, which must be within `minimum...maximum`. Built the way
    /// `Date(timeIntervalSince1970:)` builds it, so a date made from whole milliseconds comes back
    /// identical.
    package static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Whether `milliseconds` is within the stored range.
    package static func isInRange(_ milliseconds: Int64) -> Bool {
        milliseconds >= minimum && milliseconds <= maximum
    }

    /// Whether two dates are the same stored value: the same millisecond (or, outside the stored
    /// range, the same `Date`).
    static func same(_ lhs: Date?, _ rhs: Date?) -> Bool {
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        guard let left = milliseconds(of: lhs), let right = milliseconds(of: rhs) else { return lhs == rhs }
        return left == right
    }

    /// Feeds what `same` compares into `hasher`.
    static func hash(_ date: Date?, into hasher: inout Hasher) {
        guard let date else { return hasher.combine(0 as UInt8) }
        if let milliseconds = milliseconds(of: date) { hasher.combine(milliseconds) } else { hasher.combine(date) }
    }

    /// A description that never traps (Foundation's `Date.description` does for NaN).
    static func describe(_ date: Date) -> String {
        milliseconds(of: date) == nil ? "\(date.timeIntervalSince1970) s since 1970" : "\(date)"
    }
}
