/// A point in a zone's log: everything before it has happened, nothing after.
///
/// - `offset(N)`: the events with offset < N (exclusive, like mysqlbinlog's `--stop-position`);
///   N is a zone's end offset for its whole log.
/// - `time(T)`: the events stamped at or before T (milliseconds since the epoch). Precisely, the
///   log up to its first event stamped after T — the same thing while the writer's clock never
///   goes back, and always a prefix of the log, so the state is one the store really passed through.
public enum ReplayPoint: Sendable, Hashable {
    case offset(Int64)
    case time(Int64)
}

extension ReplayPoint: CustomStringConvertible {
    /// `offset 12` or `2024-05-01T12:00:00.000Z`.
    public var description: String {
        switch self {
        case .offset(let offset): "offset \(offset)"
        case .time(let time): ReplayDate.iso8601(time)
        }
    }
}
