import Foundation
import Testing
@testable import RecordLog

@Suite struct RepairTests {
    /// A store of 12 events in batches of 4 (offsets 0–3, 4–7, 8–11) in one segment, whose second
    /// batch has one byte flipped; returns the segment's original bytes and batch boundaries.
    static func damagedStore(at store: String) async throws -> (original: [UInt8], boundaries: [Int], events: [Event]) {
        let events = Sample.events(0..<12)
        try await makeStore(at: store, options: fastOptions(), events: events, batchSize: 4)
        let path = try partitionDirectory(store) + "/" + RecoveryTests.segmentName
        let original = try readBytes(path)
        let boundaries = try RecoveryTests.boundaries(original)
        var damaged = original
        damaged[boundaries[1] + 70] ^= 0x04
        try writeBytes(damaged, to: path)
        return (damaged, boundaries, events)
    }

    @Test("repair cuts the log at the first damaged batch, reports what was lost and keeps every removed byte")
    func repairMidLogDamage() async throws {
        try await withStorePath { store in
            let (damaged, boundaries, events) = try await Self.damagedStore(at: store)
            #expect(RecoveryTests.openingError(store) != nil, "the damaged store must not open")

            let report = try Log.repair(directory: store, options: fastOptions())
            let repair = try #require(report.repairs.first)
            #expect(report.repairs.count == 1)
            #expect(repair.partition == "Notes")
            #expect(repair.position == Int64(boundaries[1]))
            #expect(repair.firstLostOffset == 4)
            #expect(repair.reason.contains("CRC"))
            #expect(repair.lostBatches == [.init(baseOffset: 8, lastOffset: 11, recordCount: 4)])
            #expect(repair.bytesRemoved == Int64(damaged.count - boundaries[1]))
            // Every removed byte is kept.
            let quarantined = try repair.quarantine.flatMap { try readBytes($0) }
            #expect(quarantined == Array(damaged[boundaries[1]...]))
            #expect(repair.quarantine.allSatisfy { $0.hasPrefix(store + "/lost+found/") })

            // The store opens with what was before the damage, and takes new events at offset 4.
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.partition(named: "Notes")
            #expect(notes.endOffset == 4)
            #expect(try notes.events() == Array(events[0..<4]))
            var batch = RecordBatchBuilder()
            batch.append(key: "after-repair", value: [1, 2, 3])
            #expect(try await notes.append(batch) == 4..<5)
            try log.close()
        }
    }

    @Test("repair moves later segments to lost+found when damage is in an earlier one")
    func repairAcrossSegments() async throws {
        try await withStorePath { store in
            let options = fastOptions(segmentBytes: 1024)
            let events = Sample.events(0..<60, valueBytes: 60)
            try await makeStore(at: store, options: options, events: events, batchSize: 3)
            let directory = try partitionDirectory(store)
            let segments = try listDirectory(directory).filter { $0.hasSuffix(".log") }
            try #require(segments.count >= 3)
            let firstPath = directory + "/" + segments[0]
            var bytes = try readBytes(firstPath)
            bytes[RecordBatchHeader.size + 5] ^= 0x80  // inside the first batch's records
            try writeBytes(bytes, to: firstPath)

            let report = try Log.repair(directory: store, options: options)
            let repair = try #require(report.repairs.first)
            #expect(repair.position == 0)
            #expect(repair.firstLostOffset == 0)
            #expect(repair.quarantine.count == segments.count)
            let lostRecords = repair.lostBatches.reduce(0) { $0 + $1.recordCount }
            #expect(lostRecords == events.count - 3, "every valid batch after the damaged one is listed")
            #expect(try listDirectory(directory).filter { $0.hasSuffix(".log") } == [segments[0]])

            let log = try Log(directory: store, options: options)
            #expect(try log.partition(named: "Notes").endOffset == 0)
            try log.close()
        }
    }

    @Test("repair of a sound store changes nothing")
    func repairSoundStore() async throws {
        try await withStorePath { store in
            try await makeStore(at: store, options: fastOptions(), events: Sample.events(0..<12), batchSize: 4)
            let path = try partitionDirectory(store) + "/" + RecoveryTests.segmentName
            let before = try readBytes(path)
            let report = try Log.repair(directory: store, options: fastOptions())
            #expect(report.repairs.isEmpty)
            #expect(try readBytes(path) == before)
            #expect(!FileManager.default.fileExists(atPath: store + "/lost+found"))
        }
    }

    @Test("repair refuses a store that is open for writing")
    func repairRefusesOpenStore() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            #expect(throws: LogError.locked(path: store)) { try Log.repair(directory: store) }
            try log.close()
        }
    }
}
