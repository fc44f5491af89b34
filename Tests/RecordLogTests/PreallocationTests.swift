import Foundation
import Testing
@testable import RecordLog

@Suite struct PreallocationTests {
    @Test("the active segment is written ahead with zeros, which close cuts away")
    func preallocatedThenTrimmed() async throws {
        try await withStorePath { store in
            var options = fastOptions()
            options.preallocationBytes = 64 << 10
            let log = try Log(directory: store, options: options)
            let notes = try log.createPartition(named: "Notes")
            try await notes.append(Sample.events(0..<4), batchSize: 4)
            let path = try partitionDirectory(store) + "/" + RecoveryTests.segmentName
            let valid = try #require(notes.segments.last).size
            let written = try readBytes(path)
            #expect(written.count == 64 << 10, "appends land in preallocated space")
            #expect(written[Int(valid)...].allSatisfy { $0 == 0 })
            try await notes.append(Sample.events(4..<8), batchSize: 4)
            #expect(try readBytes(path).count == 64 << 10, "a second append does not grow the file")
            try log.close()
            #expect(try readBytes(path).count == Int(try #require(notes.segments.last).size), "close cuts the zeros")
            #expect(try walkBatches(try readBytes(path)).count == 2)
        }
    }

    @Test("a preallocation larger than a megabyte is written whole, in zeros, and cut on close")
    func largePreallocation() async throws {
        try await withStorePath { store in
            var options = fastOptions()
            options.preallocationBytes = (3 << 20) + 12_345
            let log = try Log(directory: store, options: options)
            let notes = try log.createPartition(named: "Notes")
            try await notes.append(Sample.events(0..<4), batchSize: 4)
            let path = try partitionDirectory(store) + "/" + RecoveryTests.segmentName
            let valid = Int(try #require(notes.segments.last).size)
            let written = try readBytes(path)
            #expect(written.count == options.preallocationBytes)
            #expect(written[valid...].allSatisfy { $0 == 0 })
            try log.close()
            #expect(try readBytes(path).count == valid)
            #expect(try walkBatches(try readBytes(path)).count == 1)
        }
    }

    @Test("after a crash the preallocated zeros are trimmed, reported as such, and nothing is lost")
    func crashWithPreallocation() async throws {
        try await withStorePath { store in
            let events = Sample.events(0..<12)
            do {
                let log = try Log(directory: store, options: fastOptions())
                try await log.createPartition(named: "Notes").append(events, batchSize: 4)
                try log.sync()
                // No close: the process "dies" with the zeros still at the end of the segment.
            }
            let log = try Log(directory: store, options: fastOptions())
            #expect(log.recoveryReport.truncatedTails.isEmpty, "preallocation is not a torn write")
            #expect(log.recoveryReport.trimmedPreallocations.count == 1)
            #expect(try log.partition(named: "Notes").events() == events)
            try log.close()
        }
    }

    @Test("a read-only reader of a live store stops at the preallocated zeros")
    func readOnlyDuringWrites() async throws {
        try await withStorePath { store in
            let writer = try Log(directory: store, options: fastOptions())
            try await writer.createPartition(named: "Notes").append(Sample.events(0..<8), batchSize: 4)
            try writer.sync()  // a reader sees what is durable
            let reader = try Log(directory: store, options: fastOptions(readOnly: true))
            #expect(try reader.partition(named: "Notes").endOffset == 8)
            #expect(try reader.partition(named: "Notes").events().count == 8)
            try writer.close()
        }
    }
}
