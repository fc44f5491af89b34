import Foundation

/// One workload's result: ours and every peer's, in one unit. `peer` and `ratio` are SQLite's (for
/// W10, liblz4's), as in every report before RocksDB and LMDB joined; `ratioVsBest` is against
/// the best of `peers`. A ratio > 1 always means RecordLog is better.
struct Outcome: Codable {
    var ours: Double
    var peer: Double
    /// Every peer's figure by name: "sqlite", "rocksdb", "lmdb" (W10: "liblz4").
    var peers: [String: Double]
    var unit: String
    var ratio: Double
    var ratioVsBest: Double
    /// The name of the best peer.
    var bestPeer: String
    var note: String?

    /// The peer `peer` and `ratio` are about: SQLite, else the only one.
    private static func primary(_ peers: [String: Double]) -> Double {
        peers["sqlite"] ?? peers.values.first ?? 0
    }

    /// For rates (more is better).
    static func rate(ours: Double, peers: [String: Double], unit: String, note: String? = nil) -> Outcome {
        let peer = primary(peers)
        let best = peers.max { $0.value < $1.value } ?? (key: "", value: 0)
        return Outcome(
            ours: ours, peer: peer, peers: peers, unit: unit, ratio: peer > 0 ? ours / peer : 0,
            ratioVsBest: best.value > 0 ? ours / best.value : 0, bestPeer: best.key, note: note)
    }

    /// For costs — time, bytes, memory (less is better).
    static func cost(ours: Double, peers: [String: Double], unit: String, note: String? = nil) -> Outcome {
        let peer = primary(peers)
        let best = peers.min { $0.value < $1.value } ?? (key: "", value: 0)
        return Outcome(
            ours: ours, peer: peer, peers: peers, unit: unit, ratio: ours > 0 ? peer / ours : 0,
            ratioVsBest: ours > 0 ? best.value / ours : 0, bestPeer: best.key, note: note)
    }
}

struct Report: Codable {
    var machine: [String: String]
    var parameters: [String: Int]
    var workloads: [String: Outcome]

    static let peerColumns = ["sqlite", "rocksdb", "lmdb"]

    /// One line per workload: ours, each peer, the ratio against SQLite (W10: liblz4) and against
    /// the best peer, named.
    func table() -> String {
        var lines = [
            "workload  \(pad("ours", 13)) " + Self.peerColumns.map { pad($0, 13) }.joined(separator: " ")
                + " \(pad("unit", 12)) \(pad("ratio", 7)) vs best"
        ]
        for key in workloads.keys.sorted(by: { Self.order($0) < Self.order($1) }) {
            guard let outcome = workloads[key] else { continue }
            let others = outcome.peers.filter { !Self.peerColumns.contains($0.key) }.sorted { $0.key < $1.key }
                .map { "\($0.key) \(format($0.value)) \(outcome.unit)" }
            let note = (others + (outcome.note.map { [$0] } ?? [])).joined(separator: "; ")
            lines.append(
                "\(pad(key, 9)) \(pad(format(outcome.ours), 13)) "
                    + Self.peerColumns.map { pad(outcome.peers[$0].map(format) ?? "—", 13) }.joined(separator: " ")
                    + " \(pad(outcome.unit, 12)) \(pad(String(format: "%.2f×", outcome.ratio), 7)) "
                    + pad(String(format: "%.2f×", outcome.ratioVsBest) + " (\(outcome.bestPeer))", 18) + (note.isEmpty ? "" : "  (\(note))"))
        }
        return lines.joined(separator: "\n")
    }

    /// A workload's place in the table: by number, then by the letter after it (W13a, W13b, …).
    private static func order(_ key: String) -> (Int, String) {
        let digits = key.dropFirst().prefix { $0.isNumber }
        return (Int(digits) ?? 0, String(key.dropFirst(1 + digits.count)))
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.3f", value)
    }
}
