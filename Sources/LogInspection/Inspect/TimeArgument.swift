import Foundation
import RecordLog

/// A point in time given on the command line, read the same way by both tools:
/// `log-inspect dump --since/--until` and `log-replay --at`.
///
/// ```swift
/// let since = try TimeArgument("2024-05-01T14:00:00.250+02:00")
/// let filter = DumpFilter(since: since.milliseconds)     // 1714564800250
/// ```
///
/// The forms (``forms`` lists them for help texts):
/// - milliseconds since the epoch, the unit of log timestamps: `1714564800000` (may be negative);
/// - an ISO 8601 date-time with a zone, `Z` or `±hh:mm`, and optional fractional seconds:
///   `2024-05-01T12:00:00Z`, `2024-05-01T14:00:00.250+02:00`;
/// - a date alone, `2024-05-01`, meaning its midnight UTC;
/// - `now`.
///
/// A fraction finer than a millisecond is cut to the millisecond below, so `--at` and `--until`
/// still include every event stamped at or before the instant given.
public struct TimeArgument: Sendable, Hashable {
    /// The accepted forms, with an example of each, as the tools' help texts and errors say them.
    public static let forms = "milliseconds since the epoch (1714564800000), an ISO 8601 date-time with a zone "
        + "(2024-05-01T12:00:00Z, 2024-05-01T14:00:00.250+02:00), a date (2024-05-01, meaning its midnight UTC) or `now`"

    /// The time in milliseconds since the epoch.
    public var milliseconds: Int64

    /// A time given in milliseconds since the epoch.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// Reads `text` in one of the ``forms``; white space around it is ignored.
    ///
    /// - Throws: `TimeArgumentError` for any other text, or a date or time that does not exist
    ///   (`2023-02-29`, `24:00:00`, a zone beyond ±18:00).
    public init(_ text: String) throws(TimeArgumentError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "now" {
            milliseconds = RecordBatchBuilder.now()
        } else if let given = Int64(trimmed) {
            milliseconds = given
        } else if let instant = Self.iso8601(trimmed) {
            milliseconds = instant
        } else {
            throw TimeArgumentError(text: text)
        }
    }

    /// An ISO 8601 date-time with a zone, or a date alone, in milliseconds since the epoch.
    ///
    /// Foundation does the calendar: whether the date and time exist, and the instant they name
    /// in their zone. Its ISO 8601 parsers cannot be the whole of it: they take `2023-02-29` for
    /// March 1st, `24:00:00` for the next day and `+0200` for `+02:00`, ignore text after the
    /// zone, and return a `Date`, whose seconds (a Double) do not hold every millisecond exactly
    /// (`.001` comes back as `0.000999…`). So the shape is matched here, and the fraction is read
    /// as digits.
    private static func iso8601(_ text: String) -> Int64? {
        let shape = /([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(Z|[+-][0-9]{2}:[0-9]{2}))?/
        guard let match = text.wholeMatch(of: shape) else { return nil }
        let (_, year, month, day, hour, minute, second, fraction, zone) = match.output
        guard let secondsEast = secondsEast(zone), let timeZone = TimeZone(secondsFromGMT: secondsEast) else { return nil }
        let components = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: timeZone,
            year: Int(year), month: Int(month), day: Int(day),
            hour: Int(hour ?? "0"), minute: Int(minute ?? "0"), second: Int(second ?? "0"))
        guard components.isValidDate, let date = components.date else { return nil }
        // Whole seconds since the epoch: exact in a Double.
        let seconds = Int64(date.timeIntervalSince1970.rounded())
        let milliseconds = fraction.map { Int64($0.prefix(3).padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0 } ?? 0
        return seconds * 1000 + milliseconds
    }

    /// `Z`, or none (a date alone: UTC), is 0; `±hh:mm` in seconds east of UTC; nil for minutes
    /// past 59.
    private static func secondsEast(_ zone: Substring?) -> Int? {
        guard let zone, zone != "Z" else { return 0 }
        let hours = Int(zone.dropFirst().prefix(2)) ?? 0
        let minutes = Int(zone.suffix(2)) ?? 0
        guard minutes < 60 else { return nil }
        return (zone.first == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
