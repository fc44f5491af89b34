/// A one-line progress bar for a terminal: redrawn in place (`\r`), at most every 100 ms, and
/// erased when the work ends. Nothing is drawn for work that ends within the first 100 ms.
///
/// ```swift
/// let bar = ProgressBar(label: "replaying") { FileHandle.standardError.write(Data($0.utf8)) }
/// let state = try store.state(zone: nil, at: point, progress: bar.update)
/// bar.finish()
/// ```
public final class ProgressBar {
    /// The least time between two drawings.
    public static let interval: Duration = .milliseconds(100)

    private var label: String
    private let unit: String
    private let width: Int
    private let now: () -> ContinuousClock.Instant
    private let write: (String) -> Void
    private var lastDrawn: ContinuousClock.Instant
    private var drawn = false

    /// A bar that writes its drawings with `write` (to standard error, usually).
    ///
    /// - Parameters:
    ///   - unit: what `done` and `total` count, shown after them.
    ///   - now: the clock, replaceable by tests.
    public init(
        label: String, unit: String = "events", width: Int = 30, now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now },
        write: @escaping (String) -> Void
    ) {
        self.label = label
        self.unit = unit
        self.width = max(1, width)
        self.now = now
        self.write = write
        lastDrawn = now()
    }

    /// Redraws the bar for `done` of `total`, unless it was drawn less than 100 ms ago;
    /// `label`, when given, replaces the bar's label from now on (a bisect's replay number).
    public func update(done: Int64, total: Int64, label: String? = nil) {
        if let label { self.label = label }
        let time = now()
        guard time - lastDrawn >= Self.interval else { return }
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
