import Foundation
import Testing
@testable import RecordLog
import StorageKit

@Suite struct RecoveryTests {
    static let segmentName = "00000000000000000000.log"

    /// The batch boundaries of a segment file: the start of each batch, then the end.
    static func boundaries(_ bytes: [UInt8]) throws -> [Int] {
        try walkBatches(bytes).reduce(into: [0]) { $0.append($0.last! + $1.header.totalSize) }
    }

    /// The error opening the store throws, or nil when it opens.
    static func openingError(_ store: String, options: LogOptions = fastOptions()) -> LogError? {
        do {
            try Log(directory: store, options: options).close()
            return nil
        } catch let error as LogError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    /// Expects the writer's and a read-only open to refuse the store with `corruptBatch` at this
    /// place; returns the reasons given.
    @discardableResult
    static func expectRefusedBothWays(
        _ store: String, file: String, position: Int64, offset: Int64, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String] {
        var reasons: [String] = []
        for readOnly in [false, true] {
            let error = openingError(store, options: fastOptions(readOnly: readOnly))
            guard case .corruptBatch(let found, let at, let expected, let reason)? = error else {
                Issue.record("expected corruptBatch, got \(String(describing: error)) (readOnly: \(readOnly))", sourceLocation: sourceLocation)
                continue
            }
            #expect(found == file, sourceLocation: sourceLocation)
            #expect(at == position, sourceLocation: sourceLocation)
            #expect(expected == offset, sourceLocation: sourceLocation)
            #expect(!reason.isEmpty, sourceLocation: sourceLocation)
            reasons.append(reason)
        }
        return reasons
    }

    @Test("every cut point of a last batch that was never made durable recovers exactly the batches before it")
    func tornLastBatch() async throws {
        try await withStorePath { store in
            let events = Sample.events(0..<12)
            // The store as its writer left it when it died; each cut starts again from it.
            let crashed = store + "-crashed"
            defer { try? FileManager.default.removeItem(atPath: crashed) }
            try await makeCrashedStore(at: crashed, options: fastOptions(), events: events, batchSize: 4, unsynced: 4)
            let path = try partitionDirectory(store) + "/" + Self.segmentName
            let written = try readBytes(try partitionDirectory(crashed) + "/" + Self.segmentName)
            let full = Array(written[..<(try Self.boundaries(written).last!)])
            let bounds = try Self.boundaries(full)
            try #require(bounds.count == 4)
            let previousEnd = bounds[2]
            for cut in previousEnd..<full.count {
                try? FileManager.default.removeItem(atPath: store)
                try FileManager.default.copyItem(atPath: crashed, toPath: store)
                try writeBytes(Array(full[..<cut]), to: path)
                let log = try Log(directory: store, options: fastOptions())
                let notes = try log.partition(named: "Notes")
                // A cut that leaves only zero bytes of the torn batch (its base offset starts with
                // zeros) cannot be told from preallocated space; it is cut all the same.
                let onlyZeros = full[previousEnd..<cut].allSatisfy { $0 == 0 }
                let tails = onlyZeros ? log.recoveryReport.trimmedPreallocations : log.recoveryReport.truncatedTails
                if cut == previousEnd {
                    #expect(log.recoveryReport.truncatedTails.isEmpty && tails.isEmpty, "a cut on a batch boundary leaves nothing to cut")
                } else {
                    #expect(tails.count == 1, "cut at \(cut)")
                    #expect(tails.first?.file == path)
                    #expect(tails.first?.position == Int64(previousEnd))
                    #expect(tails.first?.bytesRemoved == Int64(cut - previousEnd))
                }
                #expect(notes.endOffset == 8, "cut at \(cut)")
                #expect(try notes.events() == Array(events[..<8]), "cut at \(cut)")
                #expect(try readBytes(path) == Array(full[..<previousEnd]), "the file is cut at the last whole batch")
                // The log goes on from there.
                #expect(try await notes.append(RecordBatchBuilder(events[8..<12])) == 8..<12, "cut at \(cut)")
                try log.close()
            }
        }
    }

    @Test("a zero-filled tail after the last batch is cut", arguments: [1, 11, 12, 61, 4096])
    func zeroFilledTail(zeros: Int) async throws {
        try await withStorePath { store in
            let events = Sample.events(0..<8)
            try await makeStore(at: store, options: fastOptions(), events: events, batchSize: 4)
            let path = try partitionDirectory(store) + "/" + Self.segmentName
            let full = try readBytes(path)
            try writeBytes(full + [UInt8](repeating: 0, count: zeros), to: path)
            let log = try Log(directory: store, options: fastOptions())
            #expect(log.recoveryReport.trimmedPreallocations.map(\.bytesRemoved) == [Int64(zeros)])
            #expect(log.recoveryReport.truncatedTails.isEmpty, "zeros are preallocated space, not a torn write")
            #expect(try log.partition(named: "Notes").events() == events)
            #expect(try readBytes(path) == full)
            try log.close()
        }
    }

    @Test("a read-only open of a torn tail sees the whole batches and changes nothing")
    func readOnlyTornTail() async throws {
        try await withStorePath { store in
            let events = Sample.events(0..<8)
            try await makeCrashedStore(at: store, options: fastOptions(), events: events, batchSize: 4, unsynced: 4)
            let path = try partitionDirectory(store) + "/" + Self.segmentName
            let written = try readBytes(path)
            let torn = Array(written[..<(try Self.boundaries(written).last! - 5)])
            try writeBytes(torn, to: path)
            let log = try Log(directory: store, options: fastOptions(readOnly: true))
            #expect(log.recoveryReport.isClean)
            let notes = try log.partition(named: "Notes")
            #expect(notes.endOffset == 4)
            #expect(try notes.events() == Array(events[..<4]))
            #expect(try readBytes(path) == torn)
            try log.close()
        }
    }

    /// Byte positions inside the middle batch to flip: length, magic, CRC, attributes, timestamps,
    /// record count, and the records.
    static let middleFlips = [9, 11, 16, 18, 22, 25, 30, 40, 58, 62, 70, 90]

    @Test("a bit flip in a middle batch is reported with file, position and offset; nothing is cut", arguments: middleFlips)
    func midLogCorruption(byteInBatch: Int) async throws {
        try await withStorePath { store in
            try await makeStore(at: store, options: fastOptions(), events: Sample.events(0..<20), batchSize: 4)
            let directory = try partitionDirectory(store)
            let path = directory + "/" + Self.segmentName
            let original = try readBytes(path)
            let bounds = try Self.boundaries(original)
            let corrupt = flipping(original, byte: bounds[2] + byteInBatch, bit: 4)
            try writeBytes(corrupt, to: path)
            let filesBefore = try listDirectory(directory)
            Self.expectRefusedBothWays(store, file: path, position: Int64(bounds[2]), offset: 8)
            #expect(try readBytes(path) == corrupt, "the damaged file is left as it was")
            #expect(try listDirectory(directory) == filesBefore)
        }
    }

    @Test("a flipped base offset in a middle batch is caught by offset continuity on open", arguments: [0, 5, 7])
    func baseOffsetFlip(byteInBatch: Int) async throws {
        try await withStorePath { store in
            try await makeStore(at: store, options: fastOptions(), events: Sample.events(0..<20), batchSize: 4)
            let path = try partitionDirectory(store) + "/" + Self.segmentName
            let original = try readBytes(path)
            let bounds = try Self.boundaries(original)
            let corrupt = flipping(original, byte: bounds[2] + byteInBatch, bit: 1)
            try writeBytes(corrupt, to: path)
            let error = Self.openingError(store)
            guard case .corruptBatch(let file, let position, let offset, _)? = error else {
                Issue.record("expected corruptBatch, got \(String(describing: error))")
                return
            }
            #expect(file == path && position == Int64(bounds[2]) && offset == 8)
            #expect(try readBytes(path) == corrupt)
        }
    }

    enum Damage: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case deleteBoth, deleteOffsetIndex, deleteTimeIndex, oddLengthOffsetIndex, timeIndexPastSegment, offsetIndexDecreasing
        var testDescription: String { rawValue }

        func apply(stem: String) throws {
            switch self {
            case .deleteBoth:
                try FileManager.default.removeItem(atPath: stem + ".index")
                try FileManager.default.removeItem(atPath: stem + ".timeindex")
            case .deleteOffsetIndex:
                try FileManager.default.removeItem(atPath: stem + ".index")
            case .deleteTimeIndex:
                try FileManager.default.removeItem(atPath: stem + ".timeindex")
            case .oddLengthOffsetIndex:
                try writeBytes(try readBytes(stem + ".index") + [0], to: stem + ".index")
            case .timeIndexPastSegment:
                var bytes: [UInt8] = []
                bytes.appendInteger(Int64(1))
                bytes.appendInteger(Int32.max)
                try writeBytes(bytes, to: stem + ".timeindex")
            case .offsetIndexDecreasing:
                var bytes: [UInt8] = []
                bytes.appendInteger(Int32(3))
                bytes.appendInteger(Int32(100))
                bytes.appendInteger(Int32(2))
                bytes.appendInteger(Int32(50))
                try writeBytes(bytes, to: stem + ".index")
            }
        }
    }

    /// A closed store whose zone "Notes" has rolled into several indexed segments; returns the
    /// options, the events, and each segment's path without its suffix, oldest first.
    static func makeRolledStore(at store: String) async throws -> (LogOptions, [Event], [String]) {
        let options = fastOptions(segmentBytes: 4096, indexIntervalBytes: 256)
        let events = Sample.events(0..<300, valueBytes: 60)
        try await makeStore(at: store, options: options, events: events, batchSize: 5)
        let directory = try partitionDirectory(store)
        let stems = try listDirectory(directory).filter { $0.hasSuffix(".log") }.map { directory + "/" + $0.dropLast(4) }
        try #require(stems.count >= 3)
        return (options, events, stems)
    }

    @Test("a missing or inconsistent index of a sealed segment is rebuilt byte-identical", arguments: Damage.allCases)
    func rebuiltIndexEqualsOriginal(damage: Damage) async throws {
        try await withStorePath { store in
            let (options, events, stems) = try await Self.makeRolledStore(at: store)
            let sealed = stems.dropLast()
            var originals: [String: [UInt8]] = [:]
            for stem in stems {
                for suffix in [".index", ".timeindex"] { originals[stem + suffix] = try readBytes(stem + suffix) }
            }
            #expect(sealed.contains { !(originals[$0 + ".index"] ?? []).isEmpty }, "the indexes have entries to rebuild")
            for stem in sealed { try damage.apply(stem: stem) }

            let log = try Log(directory: store, options: options)
            #expect(log.recoveryReport.rebuiltIndexes.sorted() == sealed.map { $0 + ".log" })
            #expect(log.recoveryReport.truncatedTails.isEmpty)
            #expect(try log.partition(named: "Notes").events() == events)
            try log.close()
            for (path, bytes) in originals.sorted(by: { $0.key < $1.key }) {
                #expect(try readBytes(path) == bytes, "\(path)")
            }
        }
    }

    @Test("a clean close reopens without rebuilding anything")
    func cleanReopen() async throws {
        try await withStorePath { store in
            let (options, _, _) = try await Self.makeRolledStore(at: store)
            let log = try Log(directory: store, options: options)
            #expect(log.recoveryReport.isClean)
            try log.close()
        }
    }

    @Test("an emptied time index of a sealed segment does not break time seek or the last timestamp")
    func emptiedTimeIndex() async throws {
        try await withStorePath { store in
            let (options, events, stems) = try await Self.makeRolledStore(at: store)
            // What a crash on a file system that loses unsynced data can leave: an empty file.
            try writeBytes([], to: stems[stems.count - 2] + ".timeindex")
            let log = try Log(directory: store, options: options)
            let notes = try log.partition(named: "Notes")
            let lastSealed = try #require(notes.segments.dropLast().last)
            let target = events[Int(lastSealed.baseOffset) + 1].timestamp
            let found = try notes.offset(forTimestamp: target)
            #expect(found == lastSealed.baseOffset + 1)
            #expect(notes.lastTimestamp == events.last?.timestamp)
            try log.close()
        }
    }

    /// A store holding 12 records in three batches, left open; `damage` then changes byte
    /// `byteInBatch` of the second batch on disk. Returns what reading everything gives, and
    /// where the damaged batch starts.
    static func readAfterDamage(byteInBatch: Int, _ damage: @escaping (UInt8) -> UInt8) async throws
        -> (result: Result<[LogRecord], any Error>, damagedBatch: Int64)
    {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.createPartition(named: "Notes")
            try await notes.append(Sample.events(0..<12), batchSize: 4)
            let path = try partitionDirectory(store) + "/" + Self.segmentName
            var bytes = try readBytes(path)
            let start = try Self.boundaries(bytes)[1]
            bytes[start + byteInBatch] = damage(bytes[start + byteInBatch])
            try writeBytes(bytes, to: path)
            defer { try? log.close() }
            return (Result { try notes.records(from: 0) }, Int64(start))
        }
    }

    @Test("a batch damaged on disk after open is reported by reads as corrupt")
    func damageAfterOpen() async throws {
        let (result, damaged) = try await Self.readAfterDamage(byteInBatch: 70) { $0 ^ 0x10 }
        guard case .failure(LogError.corruptBatch(_, let position, _, _)) = result else {
            Issue.record("expected corruptBatch, got \(result)")
            return
        }
        #expect(position == damaged)
    }

    @Test("a batch length damaged on disk after open is reported by reads, not looped on")
    func damagedLengthAfterOpen() async throws {
        let (result, _) = try await Self.readAfterDamage(byteInBatch: 9) { _ in 0x01 }
        guard case .failure(LogError.corruptBatch) = result else {
            Issue.record("expected corruptBatch, got \(result)")
            return
        }
    }

    @Test("orphan index files and temporary files are removed on open")
    func orphansRemoved() async throws {
        try await withStorePath { store in
            try await makeStore(at: store, options: fastOptions(), events: Sample.events(0..<4), batchSize: 4)
            let directory = try partitionDirectory(store)
            let orphans = ["00000000000000000099.index", "00000000000000000099.timeindex", "00000000000000000000.index.tmp"]
            for name in orphans { try writeBytes([1, 2, 3], to: directory + "/" + name) }
            let log = try Log(directory: store, options: fastOptions())
            #expect(log.recoveryReport.removedFiles.sorted() == orphans.map { directory + "/" + $0 }.sorted())
            let names = try listDirectory(directory)
            #expect(orphans.allSatisfy { !names.contains($0) })
            #expect(try log.partition(named: "Notes").endOffset == 4)
            try log.close()
        }
    }

    @Test("a read-only open removes no orphan")
    func readOnlyKeepsOrphans() async throws {
        try await withStorePath { store in
            try await makeStore(at: store, options: fastOptions(), events: Sample.events(0..<4), batchSize: 4)
            let orphan = try partitionDirectory(store) + "/00000000000000000099.index"
            try writeBytes([1], to: orphan)
            let log = try Log(directory: store, options: fastOptions(readOnly: true))
            #expect(log.recoveryReport.isClean)
            #expect(FileManager.default.fileExists(atPath: orphan))
            try log.close()
        }
    }
}
