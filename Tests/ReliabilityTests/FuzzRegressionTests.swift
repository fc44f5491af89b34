import Foundation
import FuzzTargets
import Testing
import TestSupport

/// Replays the fuzz targets' saved inputs (`Fixtures/fuzz/<target>/`): the seed corpora, which
/// each decoder must accept as they are, and every input a fuzzing run found a crash with
/// (`crash-…`), which must now be refused or decoded without a trap. A regression traps the test
/// process, as it trapped the fuzzer.
@Suite struct FuzzRegressionTests {
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
    }
}
