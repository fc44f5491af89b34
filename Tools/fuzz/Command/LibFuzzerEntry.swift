// The entry point libFuzzer calls, compiled only into the fuzzing build (`Tools/fuzz/run`
// passes `-DFUZZING` with `-sanitize=fuzzer`): libFuzzer then provides `main`, so the replaying
// `main` of Replay.swift is left out. A normal `swift build` compiles Replay.swift alone.
#if FUZZING
import FuzzTargets
import Foundation

/// The target this process fuzzes, named by `RECORDLOG_FUZZ_TARGET`.
private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["RECORDLOG_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        fatalError("Set RECORDLOG_FUZZ_TARGET to one of: \(names) (it is \"\(name)\").")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    target.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#endif
