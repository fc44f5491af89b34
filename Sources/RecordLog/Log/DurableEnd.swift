#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StorageKit

/// How far a partition is known to be on disk: every batch that ends at or before `position` in
/// the segment based at `segmentBase` — every offset below `nextOffset` — was fsynced before
/// this mark was written. Recovery uses it to tell damage from a torn write: invalid bytes below
/// the mark were acknowledged to a caller once, so they are corruption, never a tail to cut.
/// Read-only readers use it to tell the writer's live tail from damage. (FORMAT.md §6.1.)
package struct DurableEnd: Sendable, Equatable {
    /// The base offset of the segment the mark points into.
    package var segmentBase: Int64
    /// The end of the last durable batch in that segment, in bytes.
    package var position: Int64
    /// One past the last durable offset.
    package var nextOffset: Int64

    package init(segmentBase: Int64, position: Int64, nextOffset: Int64) {
        self.segmentBase = segmentBase
        self.position = position
        self.nextOffset = nextOffset
    }

    /// The mark's file in a partition directory.
    static let fileName = "durable-end"
    static let magic: [UInt8] = Array("RLDE".utf8)
    static let version: UInt32 = 1
    /// Two slots, a sector apart: a torn write of one leaves the other whole.
    static let slotPositions: [Int64] = [0, 512]
    static let slotSize = 44
    static let fileSize = 1024

    /// The slot's bytes: magic, version, sequence, segment base, position, next offset, CRC-32C.
    func encoded(sequence: UInt64) -> [UInt8] {
        var bytes: [UInt8] = Self.magic
        bytes.reserveCapacity(Self.slotSize)
        bytes.appendInteger(Self.version)
        bytes.appendInteger(sequence)
        bytes.appendInteger(segmentBase)
        bytes.appendInteger(position)
        bytes.appendInteger(nextOffset)
        bytes.appendInteger(CRC32C.checksum(bytes))
        return bytes
    }

    /// A slot's mark and sequence, or nil when the slot is empty, torn or of another version.
    static func decode(_ slot: ArraySlice<UInt8>) -> (mark: DurableEnd, sequence: UInt64)? {
        guard slot.count >= slotSize else { return nil }
        let bytes = Array(slot.prefix(slotSize))
        guard Array(bytes[0..<4]) == magic else { return nil }
        return bytes.withUnsafeBytes { raw -> (DurableEnd, UInt64)? in
            let reader = ByteReader(raw)
            guard reader.getInteger(at: 4, as: UInt32.self) == version,
                let sequence = reader.getInteger(at: 8, as: UInt64.self),
                let base = reader.getInteger(at: 16, as: Int64.self),
                let position = reader.getInteger(at: 24, as: Int64.self),
                let next = reader.getInteger(at: 32, as: Int64.self),
                let crc = reader.getInteger(at: 40, as: UInt32.self),
                crc == CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<40])),
                base >= 0, position >= 0, next >= base
            else { return nil }
            return (DurableEnd(segmentBase: base, position: position, nextOffset: next), sequence)
        }
    }

    /// The newest whole mark in `bytes` (the file's content), with its sequence number.
    static func newest(in bytes: [UInt8]) -> (mark: DurableEnd, sequence: UInt64)? {
        slotPositions.compactMap { start -> (DurableEnd, UInt64)? in
            let start = Int(start)
            guard start < bytes.count else { return nil }
            return decode(bytes[start...])
        }.max { $0.1 < $1.1 }
    }

    /// The partition's mark, or nil when it has none (a store written before marks existed, a
    /// partition never synced, or both slots damaged — each of which only makes recovery trust
    /// less, never more).
    package static func read(partitionDirectory: String) -> DurableEnd? {
        let path = FileSystem.join(partitionDirectory, fileName)
        guard FileSystem.exists(path), let bytes = try? FileSystem.readAll(path) else { return nil }
        return newest(in: bytes)?.mark
    }

    /// Whether the partition's mark file holds bytes but no whole mark: damage, not absence.
    package static func isDamaged(partitionDirectory: String) -> Bool {
        let path = FileSystem.join(partitionDirectory, fileName)
        guard FileSystem.exists(path), let bytes = try? FileSystem.readAll(path) else { return false }
        return newest(in: bytes) == nil && bytes.contains { $0 != 0 }
    }
}

/// A partition's `durable-end` file, kept open by its writer.
///
/// The group committer publishes a mark after every fdatasync of the partition's segment and
/// before it resumes the appenders that sync made durable, so after a process crash every
/// acknowledged batch lies below the mark. The mark file itself is not fsynced on that path (it
/// would double the cost of a commit): its page is handed to the disk (`sync_file_range`) at
/// most every `writebackInterval`, reaches it with a following commit's flush, and is fsynced
/// when a segment rolls and when the log closes. After a power loss the mark may therefore lag
/// by the commits published after its last writeback started — at most an interval's worth —
/// which recovery then treats as it always did (a torn tail if damaged); never the other way
/// round: a mark never claims a batch that was not on disk.
final class DurableEndFile: @unchecked Sendable {
    // @unchecked: `mapping` is written only under `state`'s lock, and unmapped in deinit.
    private struct State {
        var sequence: UInt64
        var published: DurableEnd?
        /// When the mark's writeback was last started (`ContinuousClock`), to start it at most
        /// every `writebackInterval`.
        var lastWriteback: ContinuousClock.Instant?
    }

    /// How often, at most, a publish hands the mark's page to the disk. Starting the writeback
    /// after every commit slowed single-record commits (BENCHMARKS.md); once per interval
    /// bounds how far a mark can lag after a power loss.
    static let writebackInterval: Duration = .milliseconds(50)

    private let file: OpenFile
    /// The file, mapped shared and writable: a publish is a store into the page cache, with no
    /// system call and no file-time update per commit (BENCHMARKS.md measures what a `pwrite`
    /// per commit cost).
    private let mapping: UnsafeMutableRawPointer
    private let state: LockedValue<State>

    /// Opens the partition's mark file, creating it (empty) when missing.
    init(partitionDirectory: String) throws {
        let path = FileSystem.join(partitionDirectory, DurableEnd.fileName)
        let existed = FileSystem.exists(path)
        file = try OpenFile(path: path, writable: true, create: true)
        // A writer killed between creating the file and sizing it left it short: the shared
        // mapping below would raise SIGBUS on the first publish. Size it whatever its history.
        if try file.size() < Int64(DurableEnd.fileSize) {
            try file.truncate(to: Int64(DurableEnd.fileSize))
            try file.syncData()
        }
        if !existed { try FileSystem.syncDirectory(partitionDirectory) }
        let newest = DurableEnd.newest(in: try file.read(at: 0, count: DurableEnd.fileSize))
        state = LockedValue(State(sequence: newest?.sequence ?? 0, published: newest?.mark))
        let mapped = mmap(nil, DurableEnd.fileSize, PROT_READ | PROT_WRITE, MAP_SHARED, file.descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw LogError.io(operation: "mmap", path: path, errno: errno)
        }
        mapping = mapped
    }

    deinit { munmap(mapping, DurableEnd.fileSize) }

    /// The last mark written.
    var published: DurableEnd? { state.withLock { $0.published } }

    /// Writes `mark` unless an equal or later one was written already; marks only move forward.
    func publish(_ mark: DurableEnd) {
        state.withLock { state in
            if let published = state.published, published.nextOffset >= mark.nextOffset, published.segmentBase >= mark.segmentBase {
                return
            }
            write(mark, &state)
        }
    }

    /// Writes `mark` even when it lies below the last one: after `Log.repair` cut the log.
    func reset(to mark: DurableEnd) throws {
        try state.withLock { state in
            write(mark, &state)
            try file.syncData()
        }
    }

    /// Makes the last mark durable (on roll and close).
    func sync() throws {
        try file.syncData()
    }

    private func write(_ mark: DurableEnd, _ state: inout State) {
        let sequence = state.sequence &+ 1
        let slot = DurableEnd.slotPositions[Int(sequence % 2)]
        mark.encoded(sequence: sequence).withUnsafeBytes { bytes in
            if let base = bytes.baseAddress {
                (mapping + Int(slot)).copyMemory(from: base, byteCount: bytes.count)
            }
        }
        state.sequence = sequence
        state.published = mark
        // Start the page's writeback without waiting for it, at most once an interval.
        let now = ContinuousClock.now
        if state.lastWriteback.map({ now - $0 >= Self.writebackInterval }) ?? true {
            state.lastWriteback = now
            file.startWriteback(at: 0, count: Int64(DurableEnd.fileSize))
        }
    }
}
