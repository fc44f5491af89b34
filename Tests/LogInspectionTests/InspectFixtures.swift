import Foundation
import LogInspection
import TestSupport

/// The fixtures log-inspect and log-replay are tested on, and how a golden is compared.
enum InspectFixtures {
    static func path(_ relative: String) -> String {
        Fixtures.path(relative)
    }

    static let notesStore = path("notes-store")
    static let tornStore = path("notes-store-torn")
    static let flippedStore = path("notes-store-flipped")
    static let kafkaSegment = path("kafka-python/00000000000000000000.log")

    /// The golden file's text, or nil when it is missing.
    static func golden(_ name: String) -> String? {
        Fixtures.golden(name)
    }

    /// What the tool prints for `lines`: each line followed by a newline.
    static func output(_ lines: [String]) -> String {
        lines.map { $0 + "\n" }.joined()
    }

    /// `dump`'s output lines for a target.
    static func dumpLines(_ path: String, filter: DumpFilter = DumpFilter(), batches: Bool = false, json: Bool = true) throws -> [String] {
        var lines: [String] = []
        try Dump.lines(InspectTarget(path: path), filter: filter, batches: batches, json: json) { lines.append($0) }
        return lines
    }
}
