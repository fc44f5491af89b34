#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One pass over a whole file's bytes, read in place from the page cache: the file mapped
/// read-only and shared, each range let go of once read (``letGo(_:)``), unmapped when the last
/// reference goes away.
///
/// For a check of every byte (a snapshot's CRCs at open) that should neither copy the file, as a
/// `pread` into a buffer does (that copy was 40 % of a cold open's CPU, BENCHMARKS.md, W6), nor
/// leave it resident in the process, as reading a ``MappedFile`` would. The pages stay in the
/// page cache, where the file's own mapping finds them next. A shared read-only mapping has no
/// private copies, so letting its pages go loses nothing, whoever else maps the file.
///
/// Reading past the file's end, or a file truncated underneath by another program, is the
/// caller's to avoid, as with ``MappedFile`` (the kernel raises SIGBUS).
package final class FilePass: @unchecked Sendable {
    // @unchecked: the mapping's address and length never change, and nothing writes through it.

    /// The whole file, read-only.
    package let bytes: UnsafeRawBufferPointer

    /// Maps `file`, which must not be empty, for one pass.
    /// - Throws: `StorageError.io` when it cannot be mapped.
    package init(_ file: OpenFile) throws {
        bytes = UnsafeRawBufferPointer(try file.mapWhole(protection: PROT_READ, flags: MAP_SHARED))
    }

    deinit {
        if let address = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: address), bytes.count) }
    }

    /// Drops the whole pages inside `range` (byte offsets into ``bytes``) from this process's
    /// memory, for a range the pass has read: `MADV_DONTNEED`, which on a shared read-only
    /// mapping only unmaps them; the next touch reads them from the page cache again.
    package func letGo(_ range: Range<Int>) {
        guard let pages = WholePages.inside(range, of: bytes.count), let base = bytes.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + pages.lowerBound), pages.count, MADV_DONTNEED)
    }
}
