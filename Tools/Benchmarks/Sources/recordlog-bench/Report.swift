import Foundation

/// One workload's result: both sides, in one unit; `ratio` > 1 always means RecordLog is better.
struct Outcome: Codable {
    var ours: Double
    var peer: Double
    var unit: String
    var ratio: Double
    var note: String?

    /// For rates (more is better).
    static func rate(ours: Double, peer: Double, unit: String, note: String? = nil) -> Outcome {
        Outcome(ours: ours, peer: peer, unit: unit, ratio: peer > 0 ? ours / peer : 0, note: note)
    }

    /// For costs — time, bytes, memory (less is better).
    static func cost(ours: Double, peer: Double, unit: String, note: String? = nil) -> Outcome {
        Outcome(ours: ours, peer: peer, unit: unit, ratio: ours > 0 ? peer / ours : 0, note: note)
    }
}

struct Report: Codable {
    var machine: [String: String]
    var parameters: [String: Int]
    var workloads: [String: Outcome]

    func table() -> String {
        var lines = ["workload  \(pad("ours", 14)) \(pad("peer", 14)) \(pad("unit", 12)) ratio"]
        for key in workloads.keys.sorted(by: { Int($0.dropFirst()) ?? 0 < Int($1.dropFirst()) ?? 0 }) {
            guard let outcome = workloads[key] else { continue }
            lines.append(
                "\(pad(key, 9)) \(pad(format(outcome.ours), 14)) \(pad(format(outcome.peer), 14)) \(pad(outcome.unit, 12)) "
                    + String(format: "%.2f×", outcome.ratio) + (outcome.note.map { "  (\($0))" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.3f", value)
    }
}
