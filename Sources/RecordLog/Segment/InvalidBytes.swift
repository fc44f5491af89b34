/// What the first invalid bytes in a partition's log are — the one rule the writer's open, a
/// read-only open, `Log.repair` and `log-inspect verify` all apply (FORMAT.md §7).
///
/// Only bytes that were never acknowledged can be a torn tail. Whatever lies below the
/// partition's durable point (the larger of its recovery point and its durable-end mark) was
/// fsynced before a caller was told its commit had succeeded, so damage there is corruption
/// whatever follows it; so is damage with valid data after it. Beyond the durable point, a
/// reader beside a live writer sees the writer's tail (an append not yet whole, or its
/// preallocated zeros); with no writer, zeros are preallocated space and anything else is an
/// append that never completed.
package enum InvalidBytes: Sendable, Equatable {
    /// Damage: the writer refuses to open the store; `Log.repair` salvages it. The text says why
    /// these bytes cannot be a torn write.
    case corruption(String)
    /// An append that never completed, after the last durable batch: cut by the writer's open.
    case tornTail
    /// Zeros a writer wrote ahead of its appends: cut by the writer's open, not damage.
    case preallocated
    /// Beyond what the live writer has made durable: its next append, still being written.
    case liveTail

    /// Classifies invalid bytes met where a batch with offset `expectedOffset` should start.
    ///
    /// - Parameters:
    ///   - durableOffset: every offset below it is durable (recovery point, durable-end mark).
    ///   - laterData: whether a later segment of the partition holds any bytes.
    ///   - writerLive: whether a writer may be appending now (a read-only reader assumes so).
    ///   - validFollows: whether a batch valid on its own starts after the bad bytes.
    ///   - allZeros: whether every byte from the bad bytes to the end of the file is zero.
    package static func classify(
        expectedOffset: Int64, durableOffset: Int64, laterData: Bool, writerLive: Bool,
        validFollows: () throws -> Bool, allZeros: () throws -> Bool
    ) rethrows -> InvalidBytes {
        if expectedOffset < durableOffset {
            return .corruption(
                "offsets below \(durableOffset) were made durable and acknowledged, so these bytes are damage, "
                    + "not a torn write")
        }
        if laterData { return .corruption("a later segment holds data, so this is mid-log damage") }
        if writerLive { return .liveTail }
        if try validFollows() { return .corruption("valid data follows, so this is mid-log damage") }
        return try allZeros() ? .preallocated : .tornTail
    }
}
