import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar for a terminal: redrawn in place (`\r`), at most every 100 ms, and
/// erased when the work ends. Nothing is drawn for work that ends within the first 100 ms.
///
/// ```swift
/// let bar = ProgressBar(label: "replaying") { FileHandle.standardError.write(Data($0.utf8)) }
/// let state = try store.state(zone: nil, at: point, progress: bar.update)
/// bar.finish()
/// ```
public final class ProgressBar {
    /// The least time between two drawings, by default.
    public static let interval: Duration = .milliseconds(100)
    /// The environment variable that replaces ``interval`` for the tools' bars
    /// (``onStandardError(label:unit:)``), in milliseconds: 0 draws on every update, which is
    /// how the tests see a bar on a pseudo-terminal without depending on how long the work takes.
    package static let intervalVariable = "RECORDLOG_PROGRESS_INTERVAL_MS"

    private var label: String
    private let unit: String
    private let minimumInterval: Duration
    private let width: Int
    private let now: () -> ContinuousClock.Instant
    private let write: (String) -> Void
    private var lastDrawn: ContinuousClock.Instant
    private var drawn = false

    /// A bar that writes its drawings with `write` (to standard error, usually).
    ///
    /// - Parameters:
    ///   - unit: what `done` and `total` count, shown after them.
    ///   - interval: the least time between two drawings; nothing is drawn before it has passed once.
    ///   - now: the clock, replaceable by tests.
    public init(
        label: String, unit: String = "events", width: Int = 30, interval: Duration = ProgressBar.interval,
        now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now }, write: @escaping (String) -> Void
    ) {
        self.label = label
        self.unit = unit
        self.minimumInterval = interval
        self.width = max(1, width)
        self.now = now
        self.write = write
        lastDrawn = now()
    }

    /// A bar on standard error when it is a terminal, as the tools draw theirs; nil when it is
    /// not (a pipe, a file: progress is for a person watching). Its interval is
    /// ``intervalVariable``'s when set.
    package static func onStandardError(label: String, unit: String = "events") -> ProgressBar? {
        guard isatty(STDERR_FILENO) != 0 else { return nil }
        let milliseconds = ProcessInfo.processInfo.environment[intervalVariable].flatMap { Int($0) }.map { max(0, $0) }
        return ProgressBar(label: label, unit: unit, interval: milliseconds.map { .milliseconds($0) } ?? interval) { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    /// Redraws the bar for `done` of `total`, unless it was drawn less than the interval ago;
    /// `label`, when given, replaces the bar's label from now on (a bisect's replay number).
    public func update(done: Int64, total: Int64, label: String? = nil) {
        if let label { self.label = label }
        let time = now()
        guard time - lastDrawn >= minimumInterval else { return }
        lastDrawn = time
        drawn = true
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        write("\r\(self.label) [\(bar)] \(Int(fraction * 100))% \(done)/\(total) \(unit)")
    }

    /// Erases the bar, if it was drawn.
    public func finish() {
        guard drawn else { return }
        drawn = false
        write("\r\u{1B}[K")
    }
}
