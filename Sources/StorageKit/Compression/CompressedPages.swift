import Synchronization

/// Text pages of a mapped snapshot, each an LZ4 frame in the file, decompressed to the heap the
/// first time one of its texts is read and kept.
///
/// Shared by the copies of a ``TextArena`` (a cache: a page decompresses to the same bytes for
/// all of them), and safe to read from several threads. A page once kept is read without a lock
/// (``withPage(_:_:)``): a folder's listing reads two texts per note.
@usableFromInline package final class CompressedPages: @unchecked Sendable {
    // @unchecked: `starts` is written once per page, under `kept`'s lock and after the page's
    // bytes, with a releasing store, and read with acquiring loads; the bytes it points to are
    // `kept`'s, never changed or freed while the pages live.
    /// Each page's frame, read in place from the mapping, and the size it decompresses to.
    let frames: [(frame: MappedArray<UInt8>, size: Int)]
    /// The pages decompressed so far, which own their bytes.
    private let kept: LockedValue<[Int: MappedArray<UInt8>]>
    /// Per page, the address of its kept bytes (0 until it is kept).
    private let starts: UnsafeMutablePointer<Atomic<Int>>
    /// From how many pages ``load(_:)`` decompresses on two threads.
    let twoThreadsFrom: Int

    /// The pages of `frames`; ``load(_:)`` decompresses `twoThreadsFrom` pages or more on two
    /// threads (`.max`: never).
    @usableFromInline package init(frames: [(frame: MappedArray<UInt8>, size: Int)], twoThreadsFrom: Int = .max) {
        self.frames = frames
        self.twoThreadsFrom = twoThreadsFrom
        kept = LockedValue([:])
        starts = .allocate(capacity: max(1, frames.count))
        for index in 0..<frames.count { (starts + index).initialize(to: Atomic(0)) }
    }

    deinit {
        starts.deinitialize(count: frames.count)
        starts.deallocate()
    }

    @usableFromInline package var count: Int { frames.count }

    /// Calls `body` with the bytes of page `index`, decompressed now if this is their first read;
    /// none when the frame does not decompress to its size (only a damaged snapshot, past its
    /// CRCs, could do that).
    @usableFromInline package func withPage<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        precondition(frames.indices.contains(index), "CompressedPages index out of range")
        let start = starts[index].load(ordering: .acquiring)
        if start != 0 { return try body(UnsafeBufferPointer(start: UnsafePointer(bitPattern: start), count: frames[index].size)) }
        return try page(index).withUnsafeBufferPointer(body)
    }

    /// The bytes of page `index`, decompressed now if this is their first read; empty when the
    /// frame does not decompress to its size.
    ///
    /// A page is decompressed straight into the memory that keeps it, outside the lock: readers of
    /// other pages do not wait for it. Two threads reading a new page at once may both decompress
    /// it; the first to finish is kept.
    package func page(_ index: Int) -> MappedArray<UInt8> {
        if let page = kept.withLock({ $0[index] }) { return page }
        let (frame, size) = frames[index]
        let page = frame.withUnsafeBufferPointer { frame in
            try? MappedArray<UInt8>(unsafeUninitializedCapacity: size) { buffer, count in
                count = try LZ4Frame.decompress(UnsafeRawBufferPointer(frame), into: UnsafeMutableRawBufferPointer(buffer))
            }
        }
        guard let page, page.count == size else { return MappedArray() }
        return kept.withLock { pages in
            if let first = pages[index] { return first }
            pages[index] = page
            page.withUnsafeBufferPointer { starts[index].store(Int(bitPattern: $0.baseAddress), ordering: .releasing) }
            return page
        }
    }

    /// Decompresses the pages of `indices` that no read has decompressed yet, so that their reads
    /// find them; from `twoThreadsFrom` such pages on (and two), half of them on a second thread.
    /// Each page as ``page(_:)`` reads it: the same bytes on one thread or two.
    package func load(_ indices: [Int]) {
        let missing = indices.filter { frames.indices.contains($0) && starts[$0].load(ordering: .acquiring) == 0 }
        guard missing.count >= max(2, twoThreadsFrom) else {
            for index in missing { _ = page(index) }
            return
        }
        let half = missing.count / 2
        let other = Array(missing[half...])
        // `run` rethrows what neither part throws.
        try? SecondThread.run({ for index in other { _ = self.page(index) } }, while: {
            for index in missing[..<half] { _ = page(index) }
        })
    }
}
