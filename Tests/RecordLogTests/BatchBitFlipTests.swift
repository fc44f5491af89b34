import Testing
@testable import RecordLog
import StorageKit

@Suite struct BatchBitFlipTests {
    /// A valid batch of three records, as the log writes it at base offset 0.
    static let batch: [UInt8] = {
        var builder = RecordBatchBuilder()
        for event in Sample.events(0..<3) {
            builder.append(key: event.key, value: event.value, headers: event.headers, timestamp: event.timestamp)
        }
        return try! builder.encode().bytes
    }()

    static func check(_ bytes: [UInt8], expectedBaseOffset: Int64? = nil) -> Result<RecordBatchHeader, BatchProblem> {
        bytes.withUnsafeBytes {
            BatchValidation.check($0, maxBatchBytes: LogOptions.defaultMaxBatchBytes, expectedBaseOffset: expectedBaseOffset)
        }
    }

    static func problem(_ bytes: [UInt8], expectedBaseOffset: Int64? = nil) -> BatchProblem? {
        if case .failure(let problem) = check(bytes, expectedBaseOffset: expectedBaseOffset) { return problem }
        return nil
    }

    /// The same bytes with a correct CRC, to reach the checks behind it.
    static func withFixedCRC(_ bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        copy.setInteger(CRC32C.checksum(Array(bytes[21...])), at: 17)
        return copy
    }

    @Test("the unmodified batch passes")
    func validBatchPasses() throws {
        #expect(Self.problem(Self.batch, expectedBaseOffset: 0) == nil)
        #expect(try RecordBatch(bytes: Self.batch[...]).records().count == 3)
    }

    enum Field: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case batchLength, magic, crc, attributes, lastOffsetDelta, firstTimestamp, maxTimestamp
        case producerID, producerEpoch, baseSequence, recordCount

        var bytes: Range<Int> {
            switch self {
            case .batchLength: 8..<12
            case .magic: 16..<17
            case .crc: 17..<21
            case .attributes: 21..<23
            case .lastOffsetDelta: 23..<27
            case .firstTimestamp: 27..<35
            case .maxTimestamp: 35..<43
            case .producerID: 43..<51
            case .producerEpoch: 51..<53
            case .baseSequence: 53..<57
            case .recordCount: 57..<61
            }
        }

        var testDescription: String { "\(rawValue) (bytes \(bytes.lowerBound)..<\(bytes.upperBound))" }

        /// Whether `problem` is the one a flip in this field should cause.
        func explains(_ problem: BatchProblem) -> Bool {
            switch (self, problem) {
            case (.batchLength, .badLength), (.batchLength, .incomplete), (.batchLength, .crcMismatch): true
            case (.magic, .badMagic): true
            case (.magic, _), (.batchLength, _): false
            case (_, .crcMismatch): true
            default: false
            }
        }
    }

    @Test("a single bit flip anywhere in a CRC-covered header field is detected", arguments: Field.allCases)
    func headerFieldFlip(field: Field) throws {
        for index in field.bytes {
            for bit in 0..<8 {
                let flipped = flipping(Self.batch, byte: index, bit: bit)
                let problem = Self.problem(flipped)
                #expect(problem.map(field.explains) == true, "byte \(index) bit \(bit): \(String(describing: problem))")
                #expect(throws: LogError.self, "byte \(index) bit \(bit)") { try RecordBatch(bytes: flipped[...]) }
            }
        }
    }

    @Test("a bit flip anywhere in the records section is a CRC mismatch")
    func payloadFlip() throws {
        for index in RecordBatchHeader.size..<Self.batch.count {
            for bit in 0..<8 {
                let problem = Self.problem(flipping(Self.batch, byte: index, bit: bit))
                guard case .crcMismatch? = problem else {
                    Issue.record("byte \(index) bit \(bit): \(String(describing: problem))")
                    continue
                }
            }
        }
    }

    @Test("the partition leader epoch is outside the CRC, as in Kafka: a flip there passes validation")
    func leaderEpochIsNotCovered() throws {
        for index in 12..<16 {
            let flipped = flipping(Self.batch, byte: index, bit: 3)
            guard case .success(let header) = Self.check(flipped, expectedBaseOffset: 0) else {
                Issue.record("byte \(index): a leader-epoch flip must not fail validation")
                continue
            }
            #expect(header.partitionLeaderEpoch != 0)
        }
    }

    @Test("the base offset is outside the CRC; offset continuity catches a flip there")
    func baseOffsetFlipNeedsContinuity() throws {
        for index in 0..<8 {
            for bit in 0..<8 {
                let flipped = flipping(Self.batch, byte: index, bit: bit)
                let problem = Self.problem(flipped, expectedBaseOffset: 0)
                #expect(problem != nil, "byte \(index) bit \(bit)")
                if index > 0 || bit < 7 {
                    #expect(problem == .offsetDiscontinuity(expected: 0, found: Int64(1) << Int64(8 * (7 - index) + bit)))
                }
            }
        }
    }

    /// Found by the `segment-recovery` fuzz target: a batch whose last offset was 2⁶³ − 1 passed,
    /// and `Log.repair`, listing it among the batches it moved aside, trapped on `lastOffset + 1`
    /// (as every reader going on after it would have).
    @Test("a batch whose offsets leave the int64 range, or whose next offset would, is refused")
    func offsetsAtTheEndOfTheRange() throws {
        let delta = Int64(2)  // the sample batch holds three records
        for (base, valid) in [(Int64.max - delta - 1, true), (Int64.max - delta, false), (Int64.max, false), (-1, false)] {
            var batch = Self.batch
            batch.setInteger(base, at: 0)
            let problem = Self.problem(batch)
            if valid {
                #expect(problem == nil, "base \(base)")
            } else {
                #expect(problem == .offsetsOutOfRange(baseOffset: base, lastOffsetDelta: Int32(delta)), "base \(base)")
            }
        }
    }

    @Test("checks behind the CRC: magic, record count, LZ4 frame header, codec")
    func checksBehindTheCRC() throws {
        var badMagic = Self.batch
        badMagic[16] = 1
        #expect(Self.problem(Self.withFixedCRC(badMagic)) == .badMagic(1))

        var countAboveDelta = Self.batch
        countAboveDelta.setInteger(Int32(5), at: 57)
        #expect(Self.problem(Self.withFixedCRC(countAboveDelta)) == .badRecordCount(count: 5, lastOffsetDelta: 2))

        var negativeDelta = Self.batch
        negativeDelta.setInteger(Int32(-1), at: 23)
        #expect(Self.problem(Self.withFixedCRC(negativeDelta)) == .badRecordCount(count: 3, lastOffsetDelta: -1))

        var badFrameMagic = Self.batch
        badFrameMagic[61] ^= 0xFF
        guard case .badFrameHeader? = Self.problem(Self.withFixedCRC(badFrameMagic)) else {
            Issue.record("a records section that is not an LZ4 frame must be reported")
            return
        }

        var badBlockSize = Self.batch
        badBlockSize[66] = 0x10  // block size id 1 is reserved
        guard case .badFrameHeader? = Self.problem(Self.withFixedCRC(badBlockSize)) else {
            Issue.record("a reserved block size id must be reported")
            return
        }

        var unknownCodec = Self.batch
        unknownCodec.setInteger(Int16(7), at: 21)
        #expect(Self.problem(Self.withFixedCRC(unknownCodec)) == .unsupportedCodec(7))
    }

    @Test("lengths outside the bounds are reported before anything is read")
    func lengthBounds() {
        for length: Int32 in [-1, 0, 48, .min] {
            var bytes = Self.batch
            bytes.setInteger(length, at: 8)
            #expect(Self.problem(bytes) == .badLength(length))
        }
        #expect(Self.problem(Array(Self.batch.prefix(11))) == .incomplete(available: 11, needed: 12))
        #expect(Self.problem(Array(Self.batch.dropLast())) == .incomplete(available: Self.batch.count - 1, needed: Self.batch.count))
        let small = Self.batch.withUnsafeBytes { BatchValidation.check($0, maxBatchBytes: 100) }
        guard case .failure(.badLength) = small else {
            Issue.record("a batch above maxBatchBytes must be refused, got \(small)")
            return
        }
    }

    @Test("records that lie about their lengths are malformed, even under a valid CRC")
    func lyingRecords() throws {
        var builder = RecordBatchBuilder()
        builder.append(key: "k", value: Array("v".utf8), timestamp: 1_000)
        let valid = try builder.encode(compression: .none).bytes
        // Each byte of the record replaced by values that break its structure.
        for index in RecordBatchHeader.size..<valid.count {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] where value != valid[index] {
                var bytes = valid
                bytes[index] = value
                let batch = try RecordBatch(bytes: Self.withFixedCRC(bytes)[...])
                do {
                    let records = try batch.records()
                    // A change of content only (e.g. the key's letter) may decode; the shape must hold.
                    #expect(records.count == 1)
                } catch let error as LogError {
                    guard case .malformedBatch = error else {
                        Issue.record("byte \(index) = \(value): \(error)")
                        continue
                    }
                }
            }
        }
    }
}
