import StorageKit

extension BatchCache {
    /// A kept batch: its header, its records section decompressed, and where each record lies in
    /// it, found once when the batch is kept so that reading it again parses no varint.
    ///
    /// Its records' bytes stay where they are for as long as the batch lives, so a reader that
    /// holds the batch may keep pointers into them (the `keeper` of
    /// ``Partition/forEachRecordInPlace(from:to:cachedWith:_:)``). Immutable once made: the
    /// verdicts are behind a lock.
    final class Batch: @unchecked Sendable {
        let header: RecordBatchHeader
        /// The records section, in memory of its own, freed with the batch.
        let records: UnsafeRawBufferPointer
        private let positions: [Position]
        /// The memory it is counted for: the records' allocation, their positions and the bookkeeping.
        let size: Int

        /// Whether every record passed a ``CachedRecordCheck``, by the check's type: known once a
        /// read ran the check over the whole batch.
        private let verdicts = LockedValue<[ObjectIdentifier: Bool]>([:])

        /// Where one record's parts lie in the records section; a count of -1 is a null key or value.
        private struct Position {
            let offsetDelta: Int32
            let headerCount: Int32
            let timestamp: Int64
            let keyStart: Int32, keyCount: Int32
            let valueStart: Int32, valueCount: Int32
            let headersStart: Int32, headersEnd: Int32
        }

        /// Keeps a copy of `records`, the batch's decompressed records section, at its exact size.
        ///
        /// - Throws: what reading its records throws (a malformed batch, which is not kept), or
        ///   `malformedBatch` for a section past 2 GiB.
        init(header: RecordBatchHeader, records: UnsafeRawBufferPointer) throws {
            guard records.count <= Int(Int32.max) else { throw LogError.malformedBatch(reason: "records section too large to keep") }
            var positions: [Position] = []
            positions.reserveCapacity(Int(header.recordCount))
            try RecordDecoder.walk(records, header: header) { record in
                positions.append(Position(
                    offsetDelta: Int32(truncatingIfNeeded: record.offset - header.baseOffset),
                    headerCount: Int32(truncatingIfNeeded: record.headerCount), timestamp: record.timestamp,
                    keyStart: Int32(truncatingIfNeeded: record.keyRange?.lowerBound ?? 0),
                    keyCount: Int32(truncatingIfNeeded: record.keyRange?.count ?? -1),
                    valueStart: Int32(truncatingIfNeeded: record.valueRange?.lowerBound ?? 0),
                    valueCount: Int32(truncatingIfNeeded: record.valueRange?.count ?? -1),
                    headersStart: Int32(truncatingIfNeeded: record.headersRange.lowerBound),
                    headersEnd: Int32(truncatingIfNeeded: record.headersRange.upperBound)))
            }
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: records.count, alignment: 16)
            copy.copyMemory(from: records)
            self.header = header
            self.records = UnsafeRawBufferPointer(copy)
            self.positions = positions
            size = records.count + positions.capacity * MemoryLayout<Position>.stride + BatchCache.overheadBytes
        }

        deinit {
            records.deallocate()
        }

        /// Calls `body` with every record, in offset order, as ``RecordDecoder/walk(_:header:_:)``
        /// reads them, from their positions.
        func forEachRecord(_ body: (BorrowedLogRecord) throws -> Void) rethrows {
            let section = records
            for position in positions {
                try body(BorrowedLogRecord(
                    offset: header.baseOffset + Int64(position.offsetDelta), timestamp: position.timestamp, section: section,
                    keyRange: Self.range(position.keyStart, position.keyCount),
                    valueRange: Self.range(position.valueStart, position.valueCount),
                    headersRange: Int(position.headersStart)..<Int(position.headersEnd),
                    headerCount: Int(position.headerCount)))
            }
        }

        private static func range(_ start: Int32, _ count: Int32) -> Range<Int>? {
            count < 0 ? nil : Int(start)..<Int(start) + Int(count)
        }

        /// Whether every record passed `check`; nil when no read has run it over the whole batch.
        func verdict(of check: ObjectIdentifier) -> Bool? {
            verdicts.withLock { $0[check] }
        }

        /// Keeps whether every record passed `check`.
        func keep(verdict: Bool, of check: ObjectIdentifier) {
            verdicts.withLock { $0[check] = verdict }
        }
    }
}
