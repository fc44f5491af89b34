import Synchronization
import Testing
@testable import RecordLog
import TestSupport

/// A check whose verdict the batch cache keeps (`forEachRecordInPlace(cachedWith:)`): it must
/// run once per kept batch, and a record must never be reported as passing unless it did.
@Suite struct CachedRecordCheckTests {
    private let cache = BatchCacheTests()

    /// Reads `from..<to` with `Check`, returning each record's offset and whether it was reported as passing.
    private func read<Check: CachedRecordCheck>(
        _ partition: Partition, _ check: Check.Type, from: Int64, to: Int64? = nil
    ) throws -> [(offset: Int64, passed: Bool)] {
        var seen: [(Int64, Bool)] = []
        try partition.forEachRecordInPlace(from: from, to: to, cachedWith: check) { record, passed, _ in
            seen.append((record.offset, passed))
            return true
        }
        return seen
    }

    @Test("the first read checks every record of the batches it keeps; reads after it check nothing, and learn that all passed")
    func checkedOnce() async throws {
        try await cache.withPartition(cacheBytes: 1 << 20, count: 40, batchSize: 10) { _, partition in
            let first = try read(partition, AllPass.self, from: 15, to: 25)
            #expect(first.map(\.offset) == Array(15..<25))
            #expect(first.allSatisfy { $0.passed })
            #expect(AllPass.calls == 20, "the two batches holding 15..<25, whole")
            for _ in 1...2 {
                let again = try read(partition, AllPass.self, from: 15, to: 25)
                #expect(again.map { $0.offset } == Array(15..<25) && again.allSatisfy { $0.passed })
                #expect(AllPass.calls == 20)
            }
            let whole = try read(partition, AllPass.self, from: 0)
            #expect(whole.allSatisfy { $0.passed })
            #expect(AllPass.calls == 40, "the other two batches, once")
            #expect(try read(partition, AllPass.self, from: 0).count == 40)
            #expect(AllPass.calls == 40)
        }
    }

    @Test("a batch holding a record that fails reports every record as unchecked, and is not checked again")
    func failingBatch() async throws {
        try await cache.withPartition(cacheBytes: 1 << 20, count: 40, batchSize: 10) { _, partition in
            let first = try read(partition, FailsAt13.self, from: 0)
            #expect(first.filter { !$0.passed }.map(\.offset) == [13], "as it is checked, each record reports its own verdict")
            #expect(FailsAt13.calls == 40)
            for _ in 1...2 {
                let again = try read(partition, FailsAt13.self, from: 0)
                #expect(again.filter { !$0.passed }.map(\.offset) == Array(10..<20))
                #expect(FailsAt13.calls == 40)
            }
        }
    }

    @Test("a read that stops early still checks the batch to its end")
    func stopEarly() async throws {
        try await cache.withPartition(cacheBytes: 1 << 20, count: 30, batchSize: 10) { _, partition in
            var visited = 0
            try partition.forEachRecordInPlace(from: 2, cachedWith: StopEarly.self) { _, _, _ in
                visited += 1
                return visited < 3
            }
            #expect(visited == 3)
            #expect(StopEarly.calls == 10)
            let batch = try read(partition, StopEarly.self, from: 0, to: 10)
            #expect(batch.count == 10 && batch.allSatisfy { $0.passed })
            #expect(StopEarly.calls == 10)
        }
    }

    @Test("batches the cache does not keep are reported unchecked, and not checked")
    func notKept() async throws {
        try await cache.withPartition(cacheBytes: 0, count: 30, batchSize: 10) { _, partition in
            for _ in 1...2 {
                let seen = try read(partition, NoCache.self, from: 0)
                #expect(seen.count == 30 && seen.allSatisfy { !$0.passed })
            }
            #expect(NoCache.calls == 0)
        }
        // A scan keeps batches up to half the cache: the ones past that are not checked.
        try await cache.withPartition(cacheBytes: 64 << 10, count: 600, valueBytes: 400, batchSize: 20) { _, partition in
            let seen = try read(partition, HalfCache.self, from: 0)
            let checked = seen.prefix { $0.passed }.count
            #expect(checked > 0 && checked < 600 && checked % 20 == 0)
            #expect(seen.dropFirst(checked).allSatisfy { !$0.passed })
            #expect(HalfCache.calls == checked)
        }
    }

    @Test("a record's keeper keeps its bytes where they were, after the call and after the cache let the batch go")
    func keeperKeepsBytes() async throws {
        try await cache.withPartition(cacheBytes: 64 << 10, count: 600, valueBytes: 400, batchSize: 20) { log, partition in
            let expected = try partition.records(from: 0, to: 40)
            var kept: [(keeper: AnyObject, value: UnsafeRawBufferPointer?)] = []
            try partition.forEachRecordInPlace(from: 0, to: 40, cachedWith: KeeperCheck.self) { record, _, keeper in
                if let keeper { kept.append((keeper, record.value)) }
                return true
            }
            #expect(kept.count == 40, "both batches are kept")
            #expect(kept[0].keeper === kept[19].keeper && kept[19].keeper !== kept[20].keeper, "one keeper per batch")
            // Reading the rest of the log, twice, evicts both batches from the 64 KiB cache.
            let before = log.batchCache.byteCount
            for _ in 1...2 { _ = try cache.read(partition, from: 40, cached: true) }
            #expect(log.batchCache.byteCount <= 64 << 10 && before > 0)
            try partition.forEachRecordInPlace(from: 0, to: 1, cachedWith: KeeperCheck.self) { _, _, _ in true }
            #expect(KeeperCheck.calls == 60, "the first batch was read again from the file and checked again")
            for (index, entry) in kept.enumerated() {
                #expect(entry.value.map { Array($0) } == expected[index].value.map { Array($0) }, "record \(index)")
            }
        }
        try await cache.withPartition(cacheBytes: 0, count: 20, batchSize: 10) { _, partition in
            var keepers = 0
            try partition.forEachRecordInPlace(from: 0, cachedWith: KeeperCheck.self) { _, _, keeper in
                keepers += keeper == nil ? 0 : 1
                return true
            }
            #expect(keepers == 0, "with no cache, nothing keeps the bytes")
        }
    }

    @Test("readers racing over a small cache, evicting each other's batches, read what the files hold, and their keepers keep it")
    func racingReaders() async throws {
        try await cache.withPartition(cacheBytes: 48 << 10, count: 600, valueBytes: 400, batchSize: 20) { log, partition in
            let expected = try partition.records(from: 0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for reader in 0..<4 {
                    group.addTask {
                        var generator = SeededGenerator(seed: UInt64(reader) + 1)
                        for _ in 0..<40 {
                            let from = Int64.random(in: 0..<600, using: &generator)
                            let to = min(600, from + Int64.random(in: 1...120, using: &generator))
                            var seen: [LogRecord] = []
                            var borrowed: [(keeper: AnyObject, offset: Int64, value: UnsafeRawBufferPointer?)] = []
                            var unkeptPassed = 0
                            try partition.forEachRecordInPlace(from: from, to: to, cachedWith: RacingCheck.self) { record, passed, keeper in
                                seen.append(LogRecord(record))
                                if let keeper { borrowed.append((keeper, record.offset, record.value)) } else if passed { unkeptPassed += 1 }
                                return true
                            }
                            #expect(seen == Array(expected[Int(from)..<Int(to)]), "\(from)..<\(to)")
                            #expect(unkeptPassed == 0, "only a kept batch's records are reported as passing")
                            // The other readers have evicted batches meanwhile: the keepers still hold these.
                            for entry in borrowed {
                                #expect(entry.value.map { Array($0) } == expected[Int(entry.offset)].value.map { Array($0) })
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(log.batchCache.byteCount <= 48 << 10)
        }
    }

    @Test("each check has its own verdict")
    func verdictPerCheck() async throws {
        try await cache.withPartition(cacheBytes: 1 << 20, count: 20, batchSize: 10) { _, partition in
            for _ in 1...2 {
                let passing = try read(partition, OtherPasses.self, from: 0)
                let failing = try read(partition, OtherFails.self, from: 0)
                #expect(passing.count == 20 && passing.allSatisfy { $0.passed })
                #expect(failing.count == 20 && failing.allSatisfy { !$0.passed })
            }
            #expect(OtherPasses.calls == 20 && OtherFails.calls == 20)
        }
    }
}

/// A check that counts its calls and passes the offsets its rule passes: one rule per test, as
/// tests run in parallel and each check has its own verdicts.
private enum Counted<Rule: OffsetRule>: CachedRecordCheck {
    static func passes(_ record: BorrowedLogRecord) -> Bool {
        callCounts.withLock { $0[ObjectIdentifier(Rule.self), default: 0] += 1 }
        return Rule.passes(record.offset)
    }

    static var calls: Int { callCounts.withLock { $0[ObjectIdentifier(Rule.self)] ?? 0 } }
}

private let callCounts = Mutex<[ObjectIdentifier: Int]>([:])

private protocol OffsetRule { static func passes(_ offset: Int64) -> Bool }
private enum AllPassRule: OffsetRule { static func passes(_ offset: Int64) -> Bool { true } }
private enum FailsAt13Rule: OffsetRule { static func passes(_ offset: Int64) -> Bool { offset != 13 } }
private enum StopEarlyRule: OffsetRule { static func passes(_ offset: Int64) -> Bool { true } }
private enum NoCacheRule: OffsetRule { static func passes(_ offset: Int64) -> Bool { true } }
private enum HalfCacheRule: OffsetRule { static func passes(_ offset: Int64) -> Bool { true } }
private enum OtherPassesRule: OffsetRule { static func passes(_ offset: Int64) -> Bool { true } }
private enum KeeperRule: OffsetRule { static func passes(_ offset: Int64) -> Bool { true } }
private enum RacingRule: OffsetRule { static func passes(_ offset: Int64) -> Bool { true } }
private enum OtherFailsRule: OffsetRule { static func passes(_ offset: Int64) -> Bool { false } }

private typealias AllPass = Counted<AllPassRule>
private typealias FailsAt13 = Counted<FailsAt13Rule>
private typealias StopEarly = Counted<StopEarlyRule>
private typealias NoCache = Counted<NoCacheRule>
private typealias HalfCache = Counted<HalfCacheRule>
private typealias OtherPasses = Counted<OtherPassesRule>
private typealias OtherFails = Counted<OtherFailsRule>
private typealias KeeperCheck = Counted<KeeperRule>
private typealias RacingCheck = Counted<RacingRule>
