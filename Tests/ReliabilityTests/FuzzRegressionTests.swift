import Foundation
import FuzzTargets
import Testing
import TestSupport

/// Replays the fuzz targets' saved inputs (`Fixtures/fuzz/<target>/`): the seed corpora, which
/// each decoder must accept as they are, and every input a fuzzing run found a crash with
/// (`crash-…`), which must now be refused or decoded without a trap. A regression traps the test
/// process, as it trapped the fuzzer.
@Suite struct FuzzRegressionTests {
    /// Where the coverage run (`Tools/reliability/coverage`) names the grown fuzz corpora
    /// (`.build-fuzz/corpus/<target>/`, not committed), so that the code their inputs reach is
    /// counted as run.
    static let corporaVariable = "RECORDLOG_FUZZ_CORPORA"

    /// One test for all: the targets share one scratch directory per process (a store for
    /// `segment-recovery`, snapshot files), which two tests running side by side would trample.
    @Test func everySavedInputReplaysAndEverySeedIsAccepted() throws {
        defer { FuzzTarget.removeScratchFiles() }
        for target in FuzzTarget.allCases {
            let folder = Fixtures.path("fuzz/" + target.rawValue)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(names.contains { $0.hasPrefix("seed-") }, "no seed for \(target.rawValue)")
            for name in names {
                let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
                if name.hasPrefix("seed-") {
                    #expect(target.accepts(input), "\(target.rawValue)/\(name) is not accepted as it is")
                }
                target.run(input)
            }
        }
        // The grown corpora, when the coverage run names them: every input, run once.
        guard let corpora = ProcessInfo.processInfo.environment[Self.corporaVariable] else { return }
        for target in FuzzTarget.allCases {
            let folder = corpora + "/" + target.rawValue
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names.sorted() {
                target.run([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
            }
        }
    }
}
