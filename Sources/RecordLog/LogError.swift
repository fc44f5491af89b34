import StorageKit
/// Errors of the log engine. Each case says what went wrong and where; `description` says what to do.
///
/// ```swift
/// do { _ = try Log(directory: path) }
/// catch LogError.locked(let path) { /* another process has the store open for writing */ }
/// ```
public enum LogError: Error, Sendable, Equatable {
    /// A system call failed. `errno` is the C error number.
    case io(operation: String, path: String, errno: Int32)
    /// Another process (or another `Log` in this process) holds the store's write lock.
    case locked(path: String)
    /// A batch that fails validation and is followed by valid data: the log is damaged mid-way.
    /// `offset` is the offset the damaged batch was expected to start at.
    case corruptBatch(file: String, position: Int64, offset: Int64, reason: String)
    /// Bytes that are not a valid record batch (when decoding a single batch or frame).
    case malformedBatch(reason: String)
    /// An LZ4 frame that cannot be decoded.
    case malformedFrame(reason: String)
    /// Decompressing would produce more than the allowed number of bytes.
    case decompressedSizeExceeded(limit: Int)
    /// A batch larger than `LogOptions.maxBatchBytes`.
    case batchTooLarge(bytes: Int, limit: Int)
    /// A batch with no records cannot be appended.
    case emptyBatch
    /// A partition name the log cannot store (empty).
    case invalidPartitionName(String, reason: String)
    /// No partition has this name.
    case partitionNotFound(String)
    /// A partition whose name escapes to the same directory as another's (a hash collision).
    case partitionDirectoryConflict(partition: String, existing: String)
    /// An offset outside `[startOffset, endOffset]` of the partition.
    case offsetOutOfRange(offset: Int64, start: Int64, end: Int64)
    /// The store was opened read-only; writing is not allowed.
    case readOnly
    /// The log was closed.
    case closed
    /// An earlier fsync failed; what is on disk is unknown, so the log refuses further writes.
    /// Close it and open it again to recover from what the disk holds.
    case poisoned(reason: String)
    /// A store directory that holds something other than a RecordLog store.
    case notAStore(path: String, reason: String)
    /// One of the store's own small files (`recordlog.meta`, a zone's `zone.name`) is damaged:
    /// the rest of the store may be intact. Nothing was changed.
    case damagedFile(path: String, reason: String)
    /// A shared log (a partition other writers append to as well, as on PostgreSQL) refused an
    /// append planned at `expectedEnd`: another writer appended first and the partition now ends
    /// at `actualEnd` (nil: unknown, or the partition is gone). Nothing of the batch was stored;
    /// catch up with the shared log and plan again.
    case fenced(partition: String, expectedEnd: Int64, actualEnd: Int64?)
    /// A shared log's store (PostgreSQL) could not be reached, or failed, while it stored or
    /// read a batch: whether an append in flight was stored is unknown until the log is
    /// caught up again. Nothing is lost that was acknowledged; try again.
    case sharedLogUnavailable(reason: String)
}

extension LogError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .io(let operation, let path, let code):
            return "\(operation) failed on \(path): \(SystemErrorText.message(code)) (errno \(code))"
        case .locked(let path):
            return "the store at \(path) is open for writing by another process or Log; close it, "
                + "or open this one read-only"
        case .corruptBatch(let file, let position, let offset, let reason):
            return "corrupt batch in \(file) at byte \(position) (offset \(offset)): \(reason). Nothing was changed. "
                + "Run repair (Log.repair) to salvage the log up to this point; it keeps every removed byte in lost+found"
        case .malformedBatch(let reason):
            return "not a valid Kafka v2 record batch: \(reason)"
        case .malformedFrame(let reason):
            return "not a valid LZ4 frame: \(reason)"
        case .decompressedSizeExceeded(let limit):
            return "a batch decompresses to more than \(limit) bytes; raise LogOptions.maxDecompressedBytes "
                + "if this is expected"
        case .batchTooLarge(let bytes, let limit):
            return "a batch of \(bytes) bytes exceeds the limit of \(limit); split it into smaller batches"
        case .emptyBatch:
            return "a batch must hold at least one record"
        case .invalidPartitionName(let name, let reason):
            return "invalid partition name \(name.debugDescription): \(reason)"
        case .partitionNotFound(let name):
            return "no partition named \(name.debugDescription) in this store"
        case .partitionDirectoryConflict(let partition, let existing):
            return "partition \(partition.debugDescription) maps to the directory of partition \(existing.debugDescription); "
                + "choose another name"
        case .offsetOutOfRange(let offset, let start, let end):
            return "offset \(offset) is outside the log's range \(start)..<\(end)"
        case .readOnly:
            return "the store was opened read-only"
        case .closed:
            return "the log is closed"
        case .poisoned(let reason):
            return "the log stopped accepting writes after a failed fsync (\(reason)); close and reopen it"
        case .notAStore(let path, let reason):
            return "\(path) is not a RecordLog store: \(reason)"
        case .damagedFile(let path, let reason):
            return "\(path) is damaged: \(reason). Nothing was changed; restore the file (Log.repair rewrites a zone.name "
                + "from its directory's name when that name is not abbreviated)"
        case .fenced(let partition, let expected, let actual):
            return "the append to \(partition.debugDescription) was planned at offset \(expected), but another writer appended first "
                + "(the shared log now ends at \(actual.map(String.init) ?? "an unknown offset")); nothing was stored: catch up and plan again"
        case .sharedLogUnavailable(let reason):
            return "the shared log's store is unavailable (\(reason)); whether the last append was stored is known once it is back: try again"
        }
    }
}
