/// The fuzz targets: each feeds one input to one decoder of untrusted bytes and checks what must
/// hold of whatever it accepts. A target never traps on bad input — the decoders must refuse it
/// with an error; a trap (here or in the decoder) is a crash libFuzzer reports and keeps.
///
/// The same function serves libFuzzer (`recordlog-fuzz` built with `-sanitize=fuzzer`), the
/// replay of a saved input (`recordlog-fuzz replay`) and the regression tests that replay every
/// input under `Fixtures/fuzz/`.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// A Kafka v2 record batch: header, CRC, records section, LZ4 frame, records.
    case batch
    /// A record's value bytes (FORMAT.md §9): system fields, then typed fields.
    case recordValue = "record-value"
    /// A change token (FORMAT.md §11).
    case changeToken = "change-token"
    /// A segment file met by a writer's open, then `Log.repair` when the open refuses it.
    case segmentRecovery = "segment-recovery"
    /// The key index checkpoint `key-index.mapped` (FORMAT.md §12, §12.2).
    case keyIndexSnapshot = "key-index-snapshot"
    /// The Notes view's mapped snapshot `view-notes-notes.mapped` (FORMAT.md §12, §12.1).
    case notesSnapshot = "notes-snapshot"
    /// A JSON view snapshot `view-<name>.snapshot` (FORMAT.md §12), read as the Notes app's
    /// `FoldersView`.
    case jsonViewSnapshot = "json-view-snapshot"
    /// A request body of recordlog-server's API (RecordWire's JSON).
    case wireJSON = "wire-json"

    /// Removes the files the targets wrote for this process.
    package static func removeScratchFiles() { Scratch.remove() }

    /// Runs one input.
    package func run(_ input: [UInt8]) {
        switch self {
        case .batch: BatchTarget.run(input)
        case .recordValue: RecordValueTarget.run(input)
        case .changeToken: ChangeTokenTarget.run(input)
        case .segmentRecovery: SegmentRecoveryTarget.run(input)
        case .keyIndexSnapshot: KeyIndexSnapshotTarget.run(input)
        case .notesSnapshot: NotesSnapshotTarget.run(input)
        case .jsonViewSnapshot: JSONViewSnapshotTarget.run(input)
        case .wireJSON: WireJSONTarget.run(input)
        }
    }

    /// Whether the decoder takes `input` as it is (no CRC made right, no repair): what every
    /// seed must be, so that the fuzzer starts from inputs that reach the decoder's end.
    package func accepts(_ input: [UInt8]) -> Bool {
        switch self {
        case .batch: BatchTarget.accepts(input)
        case .recordValue: RecordValueTarget.accepts(input)
        case .changeToken: ChangeTokenTarget.accepts(input)
        case .segmentRecovery: SegmentRecoveryTarget.accepts(input)
        case .keyIndexSnapshot: KeyIndexSnapshotTarget.accepts(input)
        case .notesSnapshot: NotesSnapshotTarget.accepts(input)
        case .jsonViewSnapshot: JSONViewSnapshotTarget.accepts(input)
        case .wireJSON: WireJSONTarget.accepts(input)
        }
    }

    /// Well-formed inputs to start from, by name: the seed corpus `Fixtures/fuzz/<target>/`.
    package func seeds() async throws -> [(name: String, bytes: [UInt8])] {
        switch self {
        case .batch: try BatchTarget.seeds()
        case .recordValue: try RecordValueTarget.seeds()
        case .changeToken: ChangeTokenTarget.seeds()
        case .segmentRecovery: try await SegmentRecoveryTarget.seeds()
        case .keyIndexSnapshot: try await KeyIndexSnapshotTarget.seeds()
        case .notesSnapshot: try await NotesSnapshotTarget.seeds()
        case .jsonViewSnapshot: try await JSONViewSnapshotTarget.seeds()
        case .wireJSON: WireJSONTarget.seeds()
        }
    }
}

/// Stops the process with `message` when `condition` is false: an accepted input broke a rule.
/// Reaching it is a finding, which libFuzzer saves as a crash input.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz oracle: " + message()) }
}

/// A seed the store's writers did not make as expected.
struct FuzzSeedError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
