import Synchronization
import StorageKit

/// Decompressed record batches kept for reads that come again, shared by all of a log's
/// partitions: RocksDB's block cache, for the log's LZ4 batches.
///
/// A change fetch reads the log's tail, and apps fetch the same tail again (several devices,
/// several subscriptions, a retry). Reading a batch again from the file costs its `pread`, its
/// CRC-32C and its decompression, most of it LZ4 (BENCHMARKS.md, "Figures behind the code").
/// SQLite keeps the pages it read; this keeps the batches.
///
/// - **Admission**: a read that asks for the cache keeps the batches it misses, up to half the
///   cache per read (`Partition.forEachRecordInPlace(from:to:cached:_:)`): a long scan (an
///   initial sync) copies a bounded amount and evicts at most half of what was kept. Replays
///   do not ask.
/// - **Eviction**: first in, first out, within ``capacity`` bytes (each batch counted for its
///   records' allocation, its records' positions and ``overheadBytes`` more for its bookkeeping).
/// - **Keys**: a partition's cache number, given once per `Partition` object, and the batch's
///   base offset. Batches never change once readable; a zone deleted and created again is a new
///   partition with a new number, so its offsets cannot meet the old zone's batches.
/// - **What a kept batch holds** (``Batch``): its records, where each lies (so that it is read
///   again without parsing), and the verdicts of the checks run over it (``CachedRecordCheck``),
///   so that a change fetch does not check again the saves it checked before. A reader may hold
///   a batch to keep pointers into its records past eviction.
final class BatchCache: Sendable {
    struct Key: Hashable {
        let partition: UInt64
        let baseOffset: Int64
    }

    /// Bytes counted per batch beyond its records: its entries in the tables.
    static let overheadBytes = 256

    private struct State {
        var batches: [Key: Batch] = [:]
        /// Kept keys, oldest first from `head`.
        var order: [Key] = []
        var head = 0
        var bytes = 0
    }

    /// The most bytes kept.
    let capacity: Int
    private let state = LockedValue(State())
    private static let partitionNumbers = Atomic<UInt64>(0)

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// A number no other partition of this process has.
    static func partitionNumber() -> UInt64 {
        partitionNumbers.add(1, ordering: .relaxed).newValue
    }

    /// How many bytes the cache holds, bookkeeping included.
    var byteCount: Int { state.withLock { $0.bytes } }

    /// The kept batch at `key`, if any.
    func batch(_ key: Key) -> Batch? {
        guard capacity > 0 else { return nil }
        return state.withLock { $0.batches[key] }
    }

    /// Keeps `batch` at `key`, evicting the oldest batches to stay within ``capacity``, and
    /// returns the batch kept there: `batch`, or the one another read kept first (`batch` when
    /// it is not kept at all).
    @discardableResult
    func insert(_ batch: Batch, at key: Key) -> Batch {
        let size = batch.size
        guard capacity > 0, size <= capacity else { return batch }
        return state.withLock { state in
            if let kept = state.batches[key] { return kept }
            while state.bytes + size > capacity, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if let evicted = state.batches.removeValue(forKey: oldest) { state.bytes -= evicted.size }
            }
            Self.compact(&state.order, head: &state.head)
            state.batches[key] = batch
            state.order.append(key)
            state.bytes += size
            return batch
        }
    }

    /// Drops the consumed front of a queue once it is half the array.
    private static func compact(_ queue: inout [Key], head: inout Int) {
        guard head > 64, head * 2 >= queue.count else { return }
        queue.removeFirst(head)
        head = 0
    }
}
