#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole file mapped into memory privately: its pages are read from the page cache on first
/// touch (so only what is read counts as the process's memory), and a write changes a private
/// copy of its page, never the file.
///
/// For snapshots that are replaced by rename and never changed in place: a mapping keeps the
/// file it mapped even after a newer one takes its name. Unmapped when the last reference goes
/// away. Reading past the mapping's end, or a file truncated underneath it by another program,
/// is the caller's to avoid (the kernel raises SIGBUS for pages past the end of the file).
@usableFromInline package final class MappedFile: @unchecked Sendable {
    // @unchecked: the mapping's address and length never change; what the pages hold is the
    // callers' to synchronize, as with any memory they share.

    /// The mapped bytes, private and writable.
    @usableFromInline package let bytes: UnsafeMutableRawBufferPointer
    /// The mapped file's path, for errors.
    @usableFromInline package let path: String
    @usableFromInline let file: OpenFile

    /// Maps the file at `path`, which must not be empty.
    /// - Throws: `StorageError.io` when it cannot be opened or mapped.
    @usableFromInline package init(path: String) throws {
        let file = try OpenFile(path: path, writable: false)
        bytes = try file.mapWhole(protection: PROT_READ | PROT_WRITE, flags: MAP_PRIVATE)
        self.file = file
        self.path = path
    }

    deinit {
        if let address = bytes.baseAddress { munmap(address, bytes.count) }
    }

    /// Whether the file's path still names the mapped file (the same device and inode): false
    /// once a different file was renamed over it, or it was removed.
    package func isStillNamed() -> Bool {
        file.isStillNamed()
    }

    /// One pass over the whole file's bytes in place, through a mapping of its own that leaves
    /// nothing resident (``FilePass``): for reading every byte once without a copy, and without
    /// making the pages this mapping's.
    /// - Throws: `StorageError.io` when the file cannot be mapped again.
    package func pass() throws -> FilePass {
        try FilePass(file)
    }

    /// Tells the kernel that the whole pages inside `range` (byte offsets into ``bytes``) will not
    /// be read for a while, so that it reclaims them: for the owner of a range that has moved its
    /// contents elsewhere. A hint (`MADV_PAGEOUT`) that loses nothing: a page another reader
    /// changed privately keeps its change, and any page reads as before on its next touch.
    @usableFromInline package func release(_ range: Range<Int>) {
        guard let pages = WholePages.inside(range, of: bytes.count), let base = bytes.baseAddress else { return }
        // Not MADV_DONTNEED: it would throw away the private changes of any other array reading
        // the same pages. Kernels before 5.4 refuse MADV_PAGEOUT, which only leaves the pages resident.
        _ = madvise(base + pages.lowerBound, pages.count, MADV_PAGEOUT)
    }
}
