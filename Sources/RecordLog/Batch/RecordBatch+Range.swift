// A batch's records within the offsets a read wants: the step every partition's read takes for
// each batch it meets (the first batch may start before the read, the last end after it).
extension RecordBatch {
    /// Calls `body` with each record whose offset is in `wanted`, in offset order, until it
    /// returns false; returns false when it did.
    func forEachRecord(in wanted: Range<Int64>, maxDecompressedBytes: Int, _ body: (LogRecord) throws -> Bool) throws -> Bool {
        var keepGoing = true
        try forEachRecord(maxDecompressedBytes: maxDecompressedBytes) { record in
            guard keepGoing, wanted.contains(record.offset) else { return }
            keepGoing = try body(record)
        }
        return keepGoing
    }

    /// ``forEachRecord(in:maxDecompressedBytes:_:)`` read in place, decompressing into `buffer`.
    func forEachRecordInPlace(
        in wanted: Range<Int64>, maxDecompressedBytes: Int, buffer: inout [UInt8], _ body: (BorrowedLogRecord) throws -> Bool
    ) throws -> Bool {
        var keepGoing = true
        try forEachRecordInPlace(maxDecompressedBytes: maxDecompressedBytes, buffer: &buffer) { record in
            guard keepGoing, wanted.contains(record.offset) else { return }
            keepGoing = try body(record)
        }
        return keepGoing
    }
}
