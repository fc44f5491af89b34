#if !FUZZING
import Foundation
import FuzzTargets

/// `recordlog-fuzz` built normally: writes the seed corpora and replays saved inputs (a crash
/// libFuzzer found, to debug it without the fuzzing build).
///
///     recordlog-fuzz seeds Fixtures/fuzz                 # Fixtures/fuzz/<target>/seed-<name>
///     recordlog-fuzz replay batch crash-1234 …           # runs each input, says if taken as it is
@main
enum RecordLogFuzz {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        defer { FuzzTarget.removeScratchFiles() }
        do {
            switch arguments.first {
            case "seeds" where arguments.count == 2:
                try await writeSeeds(to: arguments[1])
            case "replay" where arguments.count >= 3:
                guard let target = FuzzTarget(rawValue: arguments[1]) else { usage() }
                for path in arguments.dropFirst(2) {
                    let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                    target.run(input)
                    let verdict = target.accepts(input) ? "accepted as it is" : "refused as it is"
                    FileHandle.standardError.write(Data("\(path): ok, \(verdict)\n".utf8))
                }
            default:
                usage()
            }
        } catch {
            FileHandle.standardError.write(Data("recordlog-fuzz: \(error)\n".utf8))
            FuzzTarget.removeScratchFiles()
            exit(1)
        }
    }

    private static func writeSeeds(to directory: String) async throws {
        for target in FuzzTarget.allCases {
            let folder = directory + "/" + target.rawValue
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for seed in try await target.seeds() {
                try Data(seed.bytes).write(to: URL(fileURLWithPath: folder + "/seed-" + seed.name))
            }
        }
    }

    private static func usage() -> Never {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        FileHandle.standardError.write(Data("usage: recordlog-fuzz seeds DIR | recordlog-fuzz replay \(names) FILE…\n".utf8))
        exit(64)
    }
}
#endif
