/// Text pages of a mapped snapshot, each an LZ4 frame in the file, decompressed to the heap the
/// first time one of its texts is read and kept.
///
/// Shared by the copies of a ``TextArena`` (a cache: a page decompresses to the same bytes for
/// all of them), and safe to read from several threads.
@usableFromInline package final class CompressedPages: Sendable {
    /// Each page's frame, read in place from the mapping, and the size it decompresses to.
    @usableFromInline let frames: [(frame: MappedArray<UInt8>, size: Int)]
    @usableFromInline let decompressed: LockedValue<[Int: MappedArray<UInt8>]>

    @usableFromInline package init(frames: [(frame: MappedArray<UInt8>, size: Int)]) {
        self.frames = frames
        decompressed = LockedValue([:])
    }

    @usableFromInline package var count: Int { frames.count }

    /// The bytes of page `index`, decompressed now if this is their first read; empty when the
    /// frame does not decompress to its size (only a damaged snapshot, past its CRCs, could do that).
    @usableFromInline package func page(_ index: Int) -> MappedArray<UInt8> {
        decompressed.withLock { pages in
            if let page = pages[index] { return page }
            let (frame, size) = frames[index]
            let bytes = frame.withUnsafeBufferPointer { try? LZ4Frame.decompress(UnsafeRawBufferPointer($0), sizeHint: size, limit: size) }
            guard let bytes, bytes.count == size else { return MappedArray() }
            let page = bytes.withUnsafeBufferPointer { MappedArray(copying: $0) }
            pages[index] = page
            return page
        }
    }
}
