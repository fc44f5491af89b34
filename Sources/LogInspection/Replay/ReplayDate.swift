import Foundation

/// Dates and timestamps as log-replay prints them: ISO 8601, UTC, with milliseconds (log-inspect's
/// `Timestamp` form), so equal instants print equally.
package enum ReplayDate {
    /// A log timestamp (milliseconds since the epoch).
    package static func iso8601(_ milliseconds: Int64) -> String {
        Timestamp.iso8601(milliseconds: milliseconds)
    }

    /// A record date, at the millisecond the store keeps.
    package static func iso8601(_ date: Date) -> String {
        Timestamp.iso8601(milliseconds: FieldJSON.milliseconds(date))
    }

    /// A record date as a JSON string, or null.
    package static func json(_ date: Date?) -> JSONValue {
        date.map { .string(iso8601($0)) } ?? .null
    }
}
