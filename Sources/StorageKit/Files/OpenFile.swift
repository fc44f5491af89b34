#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CWriteback

/// An open file descriptor, closed when the last reference goes away.
///
/// Reads and writes take absolute positions (`pread`/`pwritev`), so one descriptor is shared
/// by concurrent readers and the single writer without a shared cursor. Every call retries on
/// `EINTR` and loops over short transfers.
@usableFromInline package final class OpenFile: Sendable {
    package let descriptor: Int32
    package let path: String

    /// Opens `path`; with `create`, creates it with mode 0600 (and fails if it exists when `exclusive`).
    package init(path: String, writable: Bool, create: Bool = false, exclusive: Bool = false) throws {
        var flags = (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC
        if create { flags |= O_CREAT }
        if exclusive { flags |= O_EXCL }
        if create, let fault = FileFaults.fault(for: .create(path: path, directory: false)) {
            try FileFaults.inject(fault, operation: "open", path: path)
        }
        let descriptor = try FileSystem.retrying("open", path) { open(path, flags, 0o600) }
        if create { FileFaults.didPerform(.create(path: path, directory: false)) }
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// The file's size in bytes.
    package func size() throws -> Int64 {
        var info = stat()
        _ = try FileSystem.retrying("fstat", path) { fstat(descriptor, &info) }
        return Int64(info.st_size)
    }

    /// The whole file mapped (`mmap`) with `protection` and `flags`, which the caller unmaps: the
    /// one place ``MappedFile`` and ``FilePass`` map a file. It must not be empty.
    /// - Throws: `StorageError.io` when it is empty or cannot be mapped.
    package func mapWhole(protection: Int32, flags: Int32) throws -> UnsafeMutableRawBufferPointer {
        let size = Int(try size())
        guard size > 0 else { throw StorageError.io(operation: "mmap", path: path, errno: EINVAL) }
        guard let address = mmap(nil, size, protection, flags, descriptor, 0), address != MAP_FAILED else {
            throw StorageError.io(operation: "mmap", path: path, errno: errno)
        }
        return UnsafeMutableRawBufferPointer(start: address, count: size)
    }

    /// Whether `path` still names this open file (the same device and inode): false once
    /// another process renamed a different file over it, or removed it. A reader beside a
    /// compacting writer checks it after reading a segment's index files by path.
    package func isStillNamed() -> Bool {
        var open = stat(), named = stat()
        guard fstat(descriptor, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Reads up to `count` bytes at `position`; fewer only at the end of the file.
    package func read(at position: Int64, count: Int) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var failure: StorageError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let result = pread(descriptor, buffer.baseAddress.map { $0 + done }, count - done, off_t(position) + off_t(done))
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = .io(operation: "pread", path: path, errno: errno)
                    break
                }
                if result == 0 { break }
                done += result
            }
            initialized = done
        }
        if let failure { throw failure }
        return bytes
    }

    /// Fills `buffer` with the bytes at `position`; throws if the file ends first.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at position: Int64) throws {
        var done = 0
        while done < buffer.count {
            let result = pread(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done, off_t(position) + off_t(done))
            if result < 0 {
                if errno == EINTR { continue }
                throw StorageError.io(operation: "pread", path: path, errno: errno)
            }
            if result == 0 { throw StorageError.io(operation: "pread", path: path, errno: EIO) }
            done += result
        }
    }

    /// Writes all of `parts`, back to back, starting at `position`, in as few syscalls as possible.
    package func write(_ parts: [UnsafeRawBufferPointer], at position: Int64) throws {
        if let fault = FileFaults.fault(for: .write(path: path, position: position, count: Self.count(parts))) {
            if case .shortWrite(let keeping, _) = fault {
                try writeWithoutFaults(Self.prefix(parts, keeping), at: position)
                FileFaults.didPerform(.write(path: path, position: position, count: keeping))
            }
            try FileFaults.inject(fault, operation: "pwritev", path: path)
        }
        try writeWithoutFaults(parts, at: position)
        FileFaults.didPerform(.write(path: path, position: position, count: Self.count(parts)))
    }

    private static func count(_ parts: [UnsafeRawBufferPointer]) -> Int {
        parts.reduce(0) { $0 + $1.count }
    }

    /// The first `count` bytes of `parts`, as parts.
    private static func prefix(_ parts: [UnsafeRawBufferPointer], _ count: Int) -> [UnsafeRawBufferPointer] {
        var remaining = count
        var kept: [UnsafeRawBufferPointer] = []
        for part in parts where remaining > 0 {
            let taken = min(part.count, remaining)
            kept.append(UnsafeRawBufferPointer(rebasing: part[0..<taken]))
            remaining -= taken
        }
        return kept
    }

    private func writeWithoutFaults(_ parts: [UnsafeRawBufferPointer], at position: Int64) throws {
        var vectors = parts.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
        var offset = off_t(position)
        var index = 0
        while index < vectors.count {
            let written = vectors[index...].withUnsafeBufferPointer { pending in
                pwritev(descriptor, pending.baseAddress, Int32(min(pending.count, 1024)), offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw StorageError.io(operation: "pwritev", path: path, errno: errno)
            }
            offset += off_t(written)
            var remaining = written
            while index < vectors.count, remaining >= vectors[index].iov_len {
                remaining -= vectors[index].iov_len
                index += 1
            }
            if remaining > 0 {
                vectors[index].iov_base = vectors[index].iov_base.map { $0 + remaining }
                vectors[index].iov_len -= remaining
            }
        }
    }

    /// Writes `bytes` at `position`.
    package func write(_ bytes: [UInt8], at position: Int64) throws {
        try bytes.withUnsafeBytes { try write([$0], at: position) }
    }

    /// Makes the file's data (and the size needed to read it) durable.
    package func syncData() throws {
        if let fault = FileFaults.fault(for: .sync(path: path)) { try FileFaults.inject(fault, operation: "fdatasync", path: path) }
        _ = try FileSystem.retrying("fdatasync", path) { fdatasync(descriptor) }
        FileFaults.didPerform(.sync(path: path))
    }

    /// Starts writing `count` bytes from `position` back to the disk and returns at once, without
    /// making them durable (`sync_file_range`'s `SYNC_FILE_RANGE_WRITE`, which Swift's Glibc
    /// module does not export): a later `syncData()` then has less to wait for. A hint; failure
    /// is ignored.
    package func startWriteback(at position: Int64, count: Int64) {
        _ = recordlog_start_writeback(descriptor, position, count)
    }

    /// Cuts the file to `size` bytes.
    package func truncate(to size: Int64) throws {
        if let fault = FileFaults.fault(for: .truncate(path: path, size: size)) { try FileFaults.inject(fault, operation: "ftruncate", path: path) }
        _ = try FileSystem.retrying("ftruncate", path) { ftruncate(descriptor, off_t(size)) }
        FileFaults.didPerform(.truncate(path: path, size: size))
    }
}
