import RecordLog

/// Reads the TIME of `--at`: milliseconds since the epoch, an ISO 8601 time, or `now`.
public enum TimeArgument {
    /// The time in milliseconds since the epoch.
    ///
    /// Accepts `1714564800000` (ms, may be negative), `now`, and `YYYY-MM-DDTHH:MM[:SS[.fraction]]`
    /// followed by `Z` or an offset `±HH:MM` / `±HHMM` (a space may replace the `T`). A fraction
    /// finer than a millisecond is cut to the millisecond below, so the point still includes every
    /// event stamped at or before the instant given.
    ///
    /// - Throws: `ReplayError.malformedTime`.
    public static func parse(_ text: String) throws(ReplayError) -> Int64 {
        let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        if trimmed == "now" { return RecordBatchBuilder.now() }
        if let milliseconds = Int64(trimmed) { return milliseconds }
        var parser = ISO8601Parser(trimmed)
        guard let milliseconds = parser.parse() else { throw ReplayError.malformedTime(text) }
        return milliseconds
    }
}
