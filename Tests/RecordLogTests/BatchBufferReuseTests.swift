import Testing
@testable import RecordLog
import TestSupport

@Suite struct BatchBufferReuseTests {
    static func builder(_ range: Range<Int>, valueSize: Int) -> RecordBatchBuilder {
        var builder = RecordBatchBuilder()
        refill(&builder, range, valueSize: valueSize)
        return builder
    }

    static func refill(_ builder: inout RecordBatchBuilder, _ range: Range<Int>, valueSize: Int) {
        builder.removeAll()
        for index in range {
            let value = (0..<valueSize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            builder.append(key: "key-\(index)", value: value, headers: [LogHeader(key: "h", string: "\(index)")], timestamp: 7)
        }
    }

    @Test("a batch encoded into a reused builder and buffer holds the same bytes as a fresh one, nothing of the earlier, larger batch", arguments: [CompressionCodec.lz4, .none])
    func reuseLeaksNothing(codec: CompressionCodec) throws {
        var builder = Self.builder(0..<2_000, valueSize: 300)
        let large = try builder.encode(compression: codec).bytes
        let largeAddress = large.withUnsafeBufferPointer { $0.baseAddress }
        let largeCapacity = builder.capacity
        Self.refill(&builder, 5_000..<5_003, valueSize: 10)
        #expect(builder.capacity == largeCapacity, "the record buffer is kept")
        let small = try builder.encode(compression: codec, reusing: consume large)
        #expect(small.bytes.withUnsafeBufferPointer { $0.baseAddress } == largeAddress, "the output buffer is reused")
        let fresh = try Self.builder(5_000..<5_003, valueSize: 10).encode(compression: codec)
        #expect(small.bytes == fresh.bytes)
        #expect(small.uncompressedSize == fresh.uncompressedSize)
        let records = try RecordBatch(bytes: small.bytes[...]).records()
        #expect(records.map(\.keyString) == ["key-5000", "key-5001", "key-5002"])
    }

    @Test("a producer encoding into the batch it appended last writes into that batch's memory, the bytes of a fresh batch")
    func encodeIntoSpentBatch() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let partition = try log.createPartition(named: "p")
            var builder = Self.builder(0..<500, valueSize: 300)
            let first = try builder.encode(reusing: nil)
            let firstOffsets = try await partition.append(first)
            let firstAddress = first.bytes.withUnsafeBufferPointer { $0.baseAddress }
            Self.refill(&builder, 500..<503, valueSize: 10)
            let second = try builder.encode(reusing: consume first)
            #expect(second.bytes.withUnsafeBufferPointer { $0.baseAddress } == firstAddress, "no new memory")
            #expect(try second.bytes == Self.builder(500..<503, valueSize: 10).encode().bytes)
            let secondOffsets = try await partition.append(second)
            #expect(firstOffsets == 0..<500)
            #expect(secondOffsets == 500..<503)
            #expect(try partition.records(from: 498).map(\.keyString) == ["key-498", "key-499", "key-500", "key-501", "key-502"])
            try log.close()
        }
    }

    @Test("a batch encoded into any buffer — too small, with room but empty, full of other bytes — holds the bytes of a fresh one", arguments: [CompressionCodec.lz4, .none])
    func anyBufferGivesTheSameBytes(codec: CompressionCodec) throws {
        let builder = Self.builder(0..<300, valueSize: 200)
        let fresh = try builder.encode(compression: codec).bytes
        var withRoom: [UInt8] = []
        withRoom.reserveCapacity(fresh.count * 4)
        let buffers: [(String, [UInt8])] = [
            ("too small", [1, 2, 3]),
            ("room, no bytes", withRoom),
            ("room, some bytes", [UInt8](repeating: 0xAB, count: 100) + withRoom),
            ("longer than the batch, of other bytes", [UInt8](repeating: 0xFF, count: fresh.count * 3)),
        ]
        for (name, buffer) in buffers {
            let encoded = try builder.encode(compression: codec, reusing: buffer)
            #expect(encoded.bytes == fresh, "\(name)")
            #expect(try RecordBatch(bytes: encoded.bytes[...]).records().count == 300, "\(name)")
        }
    }

    @Test("a batch compressed on two threads into a reused buffer is the batch compressed on one")
    func twoThreadsIntoReusedBuffer() throws {
        let builder = Self.builder(0..<1_000, valueSize: 400)
        let serial = try builder.encode(compression: .lz4).bytes
        let twoThreads = try builder.encode(compression: .lz4, reusing: [UInt8](repeating: 0xEE, count: 1 << 20), twoThreadsFrom: 0)
        #expect(twoThreads.bytes == serial)
    }
}
