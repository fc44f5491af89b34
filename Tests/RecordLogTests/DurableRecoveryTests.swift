import Foundation
import Testing
@testable import RecordLog

/// Recovery never undoes a durable commit: damage at or below what the store proves durable (its
/// recovery point, its durable-end mark) is corruption — refused, kept, repaired into lost+found —
/// and only bytes beyond it can be a torn tail.
@Suite struct DurableRecoveryTests {
    /// How the last batch came to be covered: a clean close (recovery point and mark), or a
    /// writer that synced and then died (the mark alone: no checkpoint file at all).
    enum Coverage: String, CaseIterable, Sendable {
        case closed, syncedThenKilled
    }

    /// A store whose "Notes" partition holds `events` in batches of 4, all of them durable.
    static func durableStore(at store: String, events: [Event], coverage: Coverage) async throws {
        switch coverage {
        case .closed:
            try await makeStore(at: store, options: fastOptions(), events: events, batchSize: 4)
        case .syncedThenKilled:
            try await makeCrashedStore(at: store, options: fastOptions(), events: events, batchSize: 4, unsynced: 0)
            try? FileManager.default.removeItem(atPath: store + "/" + RecoveryCheckpoint.fileName)
        }
    }

    /// Every file of a directory tree with its bytes, to show that nothing changed.
    static func snapshot(_ directory: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory + "/" + name
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue, name != ".lock" {
                files[name] = try readBytes(path)
            }
        }
        return files
    }

    @Test("after a durable append returns, the partition's durable-end mark covers it")
    func markFollowsDurableAppends() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store)
            let notes = try log.createPartition(named: "Notes")
            for round in 0..<5 {
                let range = try await notes.append(RecordBatchBuilder(Sample.events(round * 3..<(round * 3 + 3))))
                let mark = try #require(DurableEnd.read(partitionDirectory: notes.directory))
                #expect(mark.nextOffset == range.upperBound)
                #expect(mark.position == notes.segments.last?.size)
            }
            try log.close()
        }
    }

    /// Byte positions inside the last batch to flip: length, magic, CRC, attributes, timestamps,
    /// record count, and the records.
    static let lastBatchFlips = [9, 16, 18, 30, 58, 62, 70]

    @Test(
        "a flip in a durable last batch is refused with its place, changes nothing, and repair keeps and reports the lost commit",
        arguments: Coverage.allCases, lastBatchFlips)
    func flipInDurableLastBatch(coverage: Coverage, byteInBatch: Int) async throws {
        try await withStorePath { store in
            let events = Sample.events(0..<12)
            try await Self.durableStore(at: store, events: events, coverage: coverage)
            let path = try partitionDirectory(store) + "/" + RecoveryTests.segmentName
            let original = try readBytes(path)
            let bounds = try RecoveryTests.boundaries(original)
            try #require(bounds.count == 4)
            let damaged = flipping(original, byte: bounds[2] + byteInBatch, bit: 3)
            try writeBytes(damaged, to: path)
            let before = try Self.snapshot(store)

            let reasons = RecoveryTests.expectRefusedBothWays(store, file: path, position: Int64(bounds[2]), offset: 8)
            #expect(reasons.allSatisfy { $0.contains("durable") }, "the error says why this cannot be a torn write: \(reasons)")
            #expect(try Self.snapshot(store) == before, "a refused open changes nothing")

            let report = try Log.repair(directory: store, options: fastOptions())
            let repair = try #require(report.repairs.first)
            #expect(repair.partition == "Notes")
            #expect(repair.position == Int64(bounds[2]))
            #expect(repair.firstLostOffset == 8)
            #expect(repair.lostOffsets == 8..<12, "the lost commit is reported")
            let kept = try repair.quarantine.flatMap { try readBytes($0) }
            #expect(Array(kept.prefix(bounds[3] - bounds[2])) == Array(damaged[bounds[2]..<bounds[3]]), "the damaged batch is kept")
            #expect(repair.quarantine.allSatisfy { $0.hasPrefix(store + "/lost+found/") })

            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.partition(named: "Notes")
            #expect(notes.endOffset == 8)
            #expect(try notes.events() == Array(events[..<8]))
            #expect(try await notes.append(RecordBatchBuilder(events[8..<12])) == 8..<12, "the log goes on after a repair")
            try log.close()
        }
    }

    @Test("a segment cut on a batch boundary below the durable point is missing data: refused, and repair reports the offsets")
    func durableBatchesMissing() async throws {
        try await withStorePath { store in
            try await makeStore(at: store, options: fastOptions(), events: Sample.events(0..<12), batchSize: 4)
            let path = try partitionDirectory(store) + "/" + RecoveryTests.segmentName
            let original = try readBytes(path)
            let bounds = try RecoveryTests.boundaries(original)
            try writeBytes(Array(original[..<bounds[2]]), to: path)

            let error = RecoveryTests.openingError(store)
            guard case .corruptBatch(let file, _, let offset, let reason)? = error else {
                Issue.record("expected corruptBatch, got \(String(describing: error))")
                return
            }
            #expect(file == path)
            #expect(offset == 8)
            #expect(reason.contains("missing"))

            let report = try Log.repair(directory: store, options: fastOptions())
            #expect(report.repairs.first?.lostOffsets == 8..<12)
            let log = try Log(directory: store, options: fastOptions())
            #expect(try log.partition(named: "Notes").endOffset == 8)
            try log.close()
        }
    }

    @Test("a zone deleted and created again does not inherit the old zone's recovery point")
    func recreatedZoneStartsAfresh() async throws {
        try await withStorePath { store in
            try await makeStore(at: store, options: fastOptions(), events: Sample.events(0..<12), batchSize: 4)
            do {
                let log = try Log(directory: store, options: fastOptions())
                try log.deletePartition(named: "Notes")
                let notes = try log.createPartition(named: "Notes")
                _ = try await notes.append(RecordBatchBuilder(Sample.events(0..<2)))
                // Killed: no close, no sync.
            }
            let log = try Log(directory: store, options: fastOptions())
            #expect(try log.partition(named: "Notes").endOffset <= 2)
            try log.close()
        }
    }

    @Test("a damaged zone.name is named by the refusal, and repair restores it from the directory's name",
          arguments: [Array("Other".utf8), [0xFF, 0xFE], []])
    func damagedZoneName(content: [UInt8]) async throws {
        try await withStorePath { store in
            try await makeStore(at: store, options: fastOptions(), events: Sample.events(0..<4), batchSize: 4)
            let nameFile = try partitionDirectory(store) + "/zone.name"
            try writeBytes(content, to: nameFile)
            for readOnly in [false, true] {
                let error = RecoveryTests.openingError(store, options: fastOptions(readOnly: readOnly))
                guard case .damagedFile(let path, _)? = error else {
                    Issue.record("expected damagedFile, got \(String(describing: error))")
                    continue
                }
                #expect(path == nameFile)
                #expect(error?.description.contains("not a RecordLog store") == false)
            }
            let report = try Log.repair(directory: store, options: fastOptions())
            #expect(report.restoredFiles == [nameFile])
            #expect(try readBytes(nameFile) == Array("Notes".utf8))
            let log = try Log(directory: store, options: fastOptions())
            #expect(try log.partition(named: "Notes").endOffset == 4)
            try log.close()
        }
    }

    @Test("a damaged recordlog.meta is named by the refusal, and repair restores it")
    func damagedMarker() async throws {
        try await withStorePath { store in
            try await makeStore(at: store, options: fastOptions(), events: Sample.events(0..<4), batchSize: 4)
            let marker = store + "/recordlog.meta"
            try writeBytes(flipping(try readBytes(marker), byte: 3, bit: 1), to: marker)
            for readOnly in [false, true] {
                let error = RecoveryTests.openingError(store, options: fastOptions(readOnly: readOnly))
                #expect(error.map { if case .damagedFile(marker, _) = $0 { true } else { false } } == true, "\(String(describing: error))")
            }
            let report = try Log.repair(directory: store, options: fastOptions())
            #expect(report.restoredFiles == [marker])
            let log = try Log(directory: store, options: fastOptions())
            #expect(try log.partition(named: "Notes").endOffset == 4)
            try log.close()
        }
    }

    @Test("a marker of a later format is refused as not ours, not as damage")
    func laterFormatMarker() async throws {
        try await withStorePath { store in
            try await makeStore(at: store, options: fastOptions(), events: Sample.events(0..<4), batchSize: 4)
            try writeBytes(Array("RecordLog store\nformat 2\n".utf8), to: store + "/recordlog.meta")
            guard case .notAStore(_, let reason)? = RecoveryTests.openingError(store) else {
                Issue.record("expected notAStore")
                return
            }
            #expect(reason.contains("format 2"))
        }
    }

    @Test("the durable-end mark survives a torn write of one slot: the other slot is read")
    func tornMarkSlot() async throws {
        let older = DurableEnd(segmentBase: 0, position: 100, nextOffset: 4)
        let newer = DurableEnd(segmentBase: 0, position: 200, nextOffset: 8)
        var file = [UInt8](repeating: 0, count: DurableEnd.fileSize)
        file.replaceSubrange(0..<DurableEnd.slotSize, with: newer.encoded(sequence: 2))
        file.replaceSubrange(512..<(512 + DurableEnd.slotSize), with: older.encoded(sequence: 1))
        #expect(DurableEnd.newest(in: file)?.mark == newer)
        file[20] ^= 0x10  // the newer slot torn
        #expect(DurableEnd.newest(in: file)?.mark == older)
        file[520] ^= 0x10
        #expect(DurableEnd.newest(in: file) == nil, "no whole slot: no mark, which only makes recovery trust less")
    }
}
