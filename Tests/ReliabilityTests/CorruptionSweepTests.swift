import Foundation
import ReliabilityHarness
import Testing

/// The corruption sweep's short form: a small store written by the harness's workload (several
/// zones, rolled segments, a checkpoint), one flipped byte at a time across every file — each
/// small file whole, the others at 16 positions — and after each flip the store either opens with
/// exactly its prior state or refuses with a typed error. `reliability corrupt` flips every byte.
@Suite struct CorruptionSweepTests {
    @Test func everyFlippedByteGivesThePriorStateOrAClearError() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("Sweep-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let database = try await HarnessStore.open(store)
        let model = try await WorkloadRunner.perform(30, of: Workload(seed: 31), on: database)
        try database.checkpoint()
        try database.close()

        let sweep = try await CorruptionSweep(store: store)
        #expect(sweep.expected == model)
        var silent: [CorruptionSweep.Flip] = []
        var flips = 0
        for file in sweep.files {
            // Small files (meta, names, offsets) whole; the others at 16 positions spread over them.
            let stride = file.bytes.count <= 256 ? 1 : max(1, file.bytes.count / 16)
            for position in Swift.stride(from: 0, to: file.bytes.count, by: stride) {
                let flip = await sweep.flip(file.path, at: position)
                flips += 1
                if case .silentlyDifferent = flip.outcome { silent.append(flip) }
            }
        }
        #expect(flips > 200)
        #expect(silent.isEmpty, "flips that opened to a different state: \(silent.prefix(10))")
    }
}
