/// Called during a replay with the events read so far and the total to read; at most every 256
/// events, and once at the end.
public typealias ReplayProgressHandler = (_ done: Int64, _ total: Int64) -> Void

/// Counts the events of a replay and reports them to a `ReplayProgressHandler`.
package final class ProgressTracker {
    private let total: Int64
    private let handler: ReplayProgressHandler?
    private var done: Int64 = 0

    package init(total: Int64, handler: ReplayProgressHandler?) {
        self.total = total
        self.handler = handler
    }

    /// One event read.
    package func step() {
        done += 1
        if done & 255 == 0 { handler?(done, total) }
    }

    /// The replay ended.
    package func finish() {
        handler?(done, total)
    }
}
