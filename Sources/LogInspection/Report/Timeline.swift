import Foundation

/// Commits binned over time, for the report's timeline: a fixed number of intervals of equal
/// length over the store's time range, so the chart has the same size for ten records or ten million.
struct Timeline {
    /// Per interval: saves, deletes, zone events, other records, commits.
    var saves: [Double], deletes: [Double], zoneEvents: [Double], others: [Double], commits: [Double]
    /// The first interval's start (ms since the epoch).
    let start: Int64
    /// Each interval's length (ms), at least 1.
    let width: Int64

    /// Bins `commits` into `count` intervals over `range`.
    init(_ points: [CommitPoint], range: ClosedRange<Int64>, count: Int) {
        start = range.lowerBound
        width = max(1, (range.upperBound - range.lowerBound) / Int64(count) + 1)
        let zeros = Array(repeating: 0.0, count: count)
        (saves, deletes, zoneEvents, others, commits) = (zeros, zeros, zeros, zeros, zeros)
        for commit in points {
            let index = Int(min(Int64(count - 1), max(0, (commit.timestamp - start) / width)))
            saves[index] += Double(commit.saves)
            deletes[index] += Double(commit.deletes)
            zoneEvents[index] += Double(commit.zoneEvents)
            others[index] += Double(commit.others)
            commits[index] += 1
        }
    }

    /// About six interval labels, evenly spaced, in a form fit for the range's length.
    var labels: [String?] {
        let count = commits.count
        let every = max(1, count / 6)
        let span = width * Int64(count)
        let format: String =
            if span <= 10_000 { "HH:mm:ss.SSS" } else if span <= 10 * 60_000 { "HH:mm:ss" } else if span <= 2 * 86_400_000 { "HH:mm" } else if span <= 60 * 86_400_000 {
                "MM-dd HH:mm"
            } else { "yyyy-MM-dd" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return (0..<count).map { index in
            guard index % every == 0 else { return nil }
            return formatter.string(from: Date(timeIntervalSince1970: Double(start + Int64(index) * width) / 1000))
        }
    }

    /// An interval's length in words: `250 ms`, `2.5 s`, `3 min`, `1.5 h`, `2 d`.
    var widthText: String {
        let ms = Double(width)
        for (unit, name) in [(86_400_000.0, "d"), (3_600_000.0, "h"), (60_000.0, "min"), (1000.0, "s")] where ms >= unit {
            let value = (ms / unit * 10).rounded() / 10
            return (value == value.rounded() ? String(Int(value)) : String(value)) + " " + name
        }
        return "\(width) ms"
    }
}
