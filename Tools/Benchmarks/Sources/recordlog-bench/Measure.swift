import Foundation

/// Timing, memory and disk measurements.
enum Measure {
    /// Seconds taken by `body`.
    static func seconds(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        return seconds(of: clock.now - start)
    }

    /// A duration in seconds.
    static func seconds(of duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Seconds of CPU the whole process (every thread) spent running `body`: unlike the wall
    /// clock, not inflated by other processes sharing the cores.
    static func cpuSeconds(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void) async rethrows -> Double {
        let start = processCPUSeconds()
        try await body()
        return processCPUSeconds() - start
    }

    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The median of `values` (the mean of the middle two for an even count); 0 when empty.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Minor page faults the process has taken so far (fresh memory touched for the first time).
    static func pageFaults() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_minflt
    }

    /// A field of /proc/self/status in bytes (VmRSS, VmHWM), 0 when unavailable.
    static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let parts = line.split(separator: " ").compactMap { Int($0) }
            return (parts.first ?? 0) * 1024
        }
        return 0
    }

    /// Bytes of the files under `path`.
    static func diskBytes(_ path: String) -> Int {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return 0 }
        var total = 0
        while let name = enumerator.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
            if (attributes?[.type] as? FileAttributeType) == .typeRegular { total += (attributes?[.size] as? Int) ?? 0 }
        }
        return total
    }

    /// How many cores' worth of CPU the machine gives right now: the same CPU-bound loop on one
    /// thread, then on one thread per core at once; `cores × one / all`. A virtual machine's
    /// cores may share a physical one (measured here: 1.0–2.0 of 2), which halves any gain of
    /// the two-thread replay and of group commit: the report records it at the start and end.
    static func effectiveCores() -> Double {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        @Sendable func spin() -> UInt64 {
            var state: UInt64 = 1
            for step in 0..<UInt64(200_000_000) { state = state &* 6_364_136_223_846_793_005 &+ step }
            return state
        }
        func time(threads: Int) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                if spin() == 42 { Bench.log("") }  // keeps the loop from being optimized away
            }
            return Double(DispatchTime.now().uptimeNanoseconds - start)
        }
        let one = time(threads: 1)
        let all = time(threads: cores)
        return Double(cores) * one / all
    }

    static func machine() -> [String: String] {
        var facts: [String: String] = ["cores": "\(ProcessInfo.processInfo.activeProcessorCount)"]
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") })
        {
            facts["cpu"] = line.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        facts["memory"] = "\(ProcessInfo.processInfo.physicalMemory / (1 << 30)) GiB"
        facts["os"] = ProcessInfo.processInfo.operatingSystemVersionString
        return facts
    }
}
