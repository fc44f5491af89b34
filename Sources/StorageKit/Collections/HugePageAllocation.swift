import CMoveMapping
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Heap storage for large ``MappedArray``s: an anonymous mapping of its own, aligned to 2 MiB
/// and marked for transparent huge pages.
///
/// A table of a million records (the key index's, a view's) is looked up at random, once per
/// record; with 4 KiB pages nearly every lookup also misses the TLB, and in a virtual machine a
/// TLB miss walks two page tables. A 2 MiB page covers 512 times as much, and is faulted in and
/// zeroed once instead of 512 times. `malloc` serves such sizes with a mapping too, but not
/// aligned to 2 MiB, so the kernel never backs it with huge pages. Where the system does not
/// give huge pages (`transparent_hugepage` set to `never`), this is an ordinary mapping.
@usableFromInline package enum HugePageAllocation {
    @usableFromInline package static let hugePageBytes = 2 << 20
    /// From this many bytes on, an array gets a mapping of its own.
    @usableFromInline package static let minimumBytes = 4 << 20
    private static let enabled = Atomic<Bool>(true)

    /// Whether large arrays get huge pages; when false ``allocate(bytes:)`` refuses and arrays
    /// take `malloc`'s memory. The process's choice (a test switches it off to run the plain path).
    package static var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    /// Zeroed memory for at least `bytes` bytes, 2 MiB-aligned, and its size (whole 2 MiB
    /// pages); nil when the system refuses the mapping (the caller falls back to `malloc`).
    @usableFromInline package static func allocate(bytes: Int) -> (pointer: UnsafeMutableRawPointer, bytes: Int)? {
        #if os(Linux)
        guard isEnabled, bytes > 0, bytes <= Int.max / 2 else { return nil }
        let size = (bytes + hugePageBytes - 1) & ~(hugePageBytes - 1)
        let reserved = size + hugePageBytes
        guard let raw = mmap(nil, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), raw != MAP_FAILED else {
            return nil
        }
        // Keep the aligned middle; give back the ends.
        let head = (hugePageBytes - Int(bitPattern: raw) % hugePageBytes) % hugePageBytes
        let start = raw + head
        if head > 0 { munmap(raw, head) }
        if reserved - head - size > 0 { munmap(start + size, reserved - head - size) }
        // A hint: without huge pages the mapping still works.
        _ = madvise(start, size, MADV_HUGEPAGE)
        return (start, size)
        #else
        return nil
        #endif
    }

    /// Memory for at least `newBytes` bytes, as ``allocate(bytes:)`` gives, holding the `bytes`
    /// bytes at `pointer` (memory from ``allocate(bytes:)``, `bytes` long): their pages are moved,
    /// not copied, and the memory at `pointer` is gone. Nil when the system refuses, `pointer`'s
    /// memory then unchanged.
    @usableFromInline package static func grow(_ pointer: UnsafeMutableRawPointer, bytes: Int, to newBytes: Int) -> (
        pointer: UnsafeMutableRawPointer, bytes: Int
    )? {
        #if os(Linux)
        guard let grown = allocate(bytes: newBytes) else { return nil }
        guard grown.bytes > bytes, recordlog_move_mapping(pointer, bytes, grown.pointer) == 0 else {
            deallocate(grown.pointer, bytes: grown.bytes)
            return nil
        }
        return grown
        #else
        return nil
        #endif
    }

    /// Gives back memory from ``allocate(bytes:)``.
    @usableFromInline package static func deallocate(_ pointer: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux)
        munmap(pointer, bytes)
        #endif
    }
}
