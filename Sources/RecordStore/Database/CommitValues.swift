/// The values of one commit's saved records, encoded once, back to back, exactly as the log
/// holds them: the commit copies each into its batch from here, and the views fold each from
/// here (``ViewFoldEvents``) through ``MaterializedView/apply(saved:)``, as a replay folds the
/// log. A live view is thereby fed the very bytes its replay reads.
///
/// Ownership moves in one direction: the committing thread fills it under the database's lock
/// while nothing else holds it (``CommitBuffers/takeValues()``); once the commit hands it to
/// the views, it is only read, by each view's fold, on whichever thread that runs. The buffers
/// keep it for a later commit and refill it only once no fold holds it any more.
final class CommitValues: @unchecked Sendable {
    /// The values, back to back.
    private(set) var bytes: [UInt8] = []
    /// Where each value ends in `bytes`, in the order appended.
    private(set) var ends: [Int] = []

    /// How many values it holds.
    var count: Int { ends.count }

    /// How many bytes its buffers hold room for.
    var capacity: Int { bytes.capacity }

    /// Forgets every value, keeping the memory.
    func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Encodes a record the planner validated as the next value (``RecordCodec/encodeValidated(_:into:bound:)``).
    ///
    /// - Throws: `limitExceeded` for a record over the size limit; nothing is appended then.
    func append(_ record: Record, bound: Int) throws(RecordStoreError) {
        try RecordCodec.encodeValidated(record, into: &bytes, bound: bound)
        ends.append(bytes.count)
    }

    /// Calls `body` with the bytes of value `index`.
    func withValue<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let start = index == 0 ? 0 : ends[index - 1]
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<ends[index]])) }
    }

    /// Calls `body` with every value, in order, from one hold of the buffer.
    func forEachValue(_ body: (Int, UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { base in
            var start = 0
            for (index, end) in ends.enumerated() {
                body(index, UnsafeRawBufferPointer(rebasing: base[start..<end]))
                start = end
            }
        }
    }
}
