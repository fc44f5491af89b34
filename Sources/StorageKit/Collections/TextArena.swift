/// Where a text lives in a ``TextArena``.
@usableFromInline package struct TextRef: Sendable, Equatable, BitwiseCopyable {
    @usableFromInline package var page: UInt32
    @usableFromInline package var offset: UInt32
    @usableFromInline package var count: UInt32

    @inlinable
    package init(page: UInt32, offset: UInt32, count: UInt32) {
        self.page = page
        self.offset = offset
        self.count = count
    }

    /// The empty text, which takes no room.
    @usableFromInline package static let empty = TextRef(page: 0, offset: 0, count: 0)
}

/// UTF-8 texts stored back to back in pages of 1 MiB: one allocation per page, not one per text,
/// and no per-text header — for a view holding a million notes, about 130 bytes less per note
/// than three `String`s, and a replay that copies bytes instead of calling `malloc`.
///
/// Texts are never moved or freed one by one: ``release(_:)`` counts a text's bytes as garbage,
/// and the owner rewrites its live texts into a new arena (``NoteSlots``) once garbage
/// outweighs them. A value type: a copy shares the pages until either side writes.
@usableFromInline package struct TextArena: Sendable {
    @usableFromInline package static let pageSize = 1 << 20

    /// The pages; those of a snapshot are empty here, their bytes in `compressed`.
    @usableFromInline package private(set) var pages: [MappedArray<UInt8>] = []
    /// The first pages' bytes, when the arena was read from a snapshot.
    @usableFromInline var compressed: CompressedPages?
    /// Bytes of texts appended and not released.
    @usableFromInline package private(set) var liveBytes = 0
    /// Bytes of released texts, still taking room.
    @usableFromInline package private(set) var garbageBytes = 0

    /// Copies `bytes` in; a text longer than a page gets a page of its own size.
    @inlinable
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) -> TextRef {
        guard !bytes.isEmpty else { return .empty }
        if let last = pages.indices.last, pages[last].capacity - pages[last].count >= bytes.count {
            return append(bytes, toPage: last)
        }
        var page = MappedArray<UInt8>()
        page.reserveCapacity(max(Self.pageSize, bytes.count))
        pages.append(page)
        return append(bytes, toPage: pages.count - 1)
    }

    @inlinable mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, toPage index: Int) -> TextRef {
        let offset = pages[index].count
        pages[index].append(contentsOf: bytes)
        liveBytes += bytes.count
        return TextRef(page: UInt32(index), offset: UInt32(offset), count: UInt32(bytes.count))
    }

    /// An empty arena.
    @inlinable
    package init() {}

    /// The arena of a snapshot's compressed pages, holding `liveBytes` of texts.
    @inlinable
    package init(compressed: CompressedPages, liveBytes: Int) {
        pages = Array(repeating: MappedArray(), count: compressed.count)
        self.compressed = compressed
        self.liveBytes = liveBytes
    }

    /// Calls `body` with the bytes of the text at `ref` (none for a reference outside the pages,
    /// which only a damaged snapshot could hold).
    @inlinable
    package func withBytes<Result>(_ ref: TextRef, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        guard ref.count > 0, Int(ref.page) < pages.count else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let end = Int(ref.offset) + Int(ref.count)
        if end <= pages[Int(ref.page)].count {
            return try pages[Int(ref.page)].withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[Int(ref.offset)..<end])) }
        }
        // A snapshot's page, empty here: its bytes come from `compressed` (and hold the text, or
        // the snapshot was damaged).
        guard let compressed, Int(ref.page) < compressed.count else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try compressed.withPage(Int(ref.page)) { page in
            guard end <= page.count else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
            return try body(UnsafeBufferPointer(rebasing: page[Int(ref.offset)..<end]))
        }
    }

    /// Decompresses, ahead of their reads, the snapshot pages that hold the texts `refs` visits
    /// (``CompressedPages/load(_:)``): a folder listed first after an open decompresses its pages
    /// together, on two threads, rather than one by one as it reads them.
    package func preload(_ refs: ((TextRef) -> Void) -> Void) {
        guard let compressed else { return }
        var wanted = [Bool](repeating: false, count: compressed.count)
        refs { ref in
            let page = Int(ref.page)
            if ref.count > 0, page < compressed.count, page < pages.count, pages[page].isEmpty { wanted[page] = true }
        }
        compressed.load(wanted.indices.filter { wanted[$0] })
    }

    /// The text at `ref`.
    @inlinable
    package func string(_ ref: TextRef) -> String {
        withBytes(ref) { String(decoding: $0, as: UTF8.self) }
    }

    /// Counts the text at `ref` as garbage: it will not be read again.
    @inlinable
    package mutating func release(_ ref: TextRef) {
        liveBytes -= Int(ref.count)
        garbageBytes += Int(ref.count)
    }

    /// Whether rewriting the live texts would give back more than it costs: garbage outweighs
    /// both the live texts and a page.
    @inlinable
    package var wantsCompaction: Bool {
        garbageBytes > max(liveBytes, Self.pageSize)
    }

    /// Memory the pages hold, in bytes.
    @inlinable
    package var capacity: Int {
        pages.reduce(0) { $0 + $1.capacity }
    }
}
