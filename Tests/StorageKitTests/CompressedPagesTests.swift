import Dispatch
import Testing
@testable import StorageKit
import TestSupport

/// A snapshot's compressed text pages: each decompressed on its first read and kept, or loaded
/// together ahead of the reads, on one thread or two, with the same bytes either way.
@Suite struct CompressedPagesTests {
    /// Pages of texts of several sizes (some larger than the 64 KiB a block holds), each its own
    /// LZ4 frame, and those texts; page `damaged`, if any, is listed a byte longer than its frame
    /// decompresses to, and its frame is cut short.
    static func pages(twoThreadsFrom: Int, damaging damaged: Int? = nil) throws -> (pages: CompressedPages, texts: [[UInt8]]) {
        let texts = [1, 300, 65_536, 70_000, 5, 200_000, 1 << 20].enumerated().map { index, size in
            LZ4FrameTests.wordSoup(bytes: size + index)
        }
        let frames = try texts.enumerated().map { index, text in
            var frame = try LZ4Frame.compress(text)
            if index == damaged { frame.removeLast(frame.count / 2) }
            return (frame: frame.withUnsafeBufferPointer { MappedArray(copying: $0) }, size: text.count + (index == damaged ? 1 : 0))
        }
        return (CompressedPages(frames: frames, twoThreadsFrom: twoThreadsFrom), texts)
    }

    @Test("pages loaded together, on one thread or two, read as each page read alone does", arguments: [Int.max, 2, 4])
    func loadedPagesReadTheSame(twoThreadsFrom: Int) throws {
        let (pages, texts) = try Self.pages(twoThreadsFrom: twoThreadsFrom)
        // Some pages read first, the rest loaded together with them, an index past the pages ignored.
        #expect(Array(pages.page(2)) == texts[2])
        pages.load([0, 1, 2, 3, 5, 6, 7, 99])
        for index in texts.indices {
            #expect(Array(pages.page(index)) == texts[index], "page \(index)")
        }
    }

    @Test("a page that was loaded is kept: reading it again decompresses nothing", arguments: [Int.max, 2])
    func loadedPagesAreKept(twoThreadsFrom: Int) throws {
        let (pages, _) = try Self.pages(twoThreadsFrom: twoThreadsFrom)
        pages.load(Array(0..<pages.count))
        // The same storage, not another decompression of the frame, both ways of reading it.
        let first = pages.withPage(6) { $0.baseAddress }
        #expect(first != nil)
        #expect(pages.withPage(6) { $0.baseAddress } == first)
        #expect(pages.page(6).withUnsafeBufferPointer { $0.baseAddress } == first)
    }

    @Test("threads reading the same new pages at once all read their bytes, and one copy of each is kept")
    func concurrentFirstReads() throws {
        let (pages, texts) = try Self.pages(twoThreadsFrom: 2)
        let mismatches = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for step in texts.indices {
                let index = (worker % 2 == 0) ? step : texts.count - 1 - step
                if !pages.withPage(index, { $0.elementsEqual(texts[index]) }) { mismatches.withLock { $0 += 1 } }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
        for index in texts.indices {
            #expect(pages.withPage(index) { $0.baseAddress } == pages.page(index).withUnsafeBufferPointer { $0.baseAddress })
        }
    }

    @Test("a frame that does not decompress to its size reads as empty, loaded or read alone, and the other pages read whole", arguments: [Int.max, 2])
    func damagedFrameReadsEmpty(twoThreadsFrom: Int) throws {
        let (pages, texts) = try Self.pages(twoThreadsFrom: twoThreadsFrom, damaging: 5)
        pages.load(Array(0..<pages.count))
        for index in texts.indices {
            #expect(Array(pages.page(index)) == (index == 5 ? [] : texts[index]), "page \(index)")
            #expect(pages.withPage(index) { Array($0) } == (index == 5 ? [] : texts[index]), "page \(index)")
        }
        // Its length alone is wrong: the whole frame, listed a byte longer, reads as empty too.
        let whole = try LZ4Frame.compress(texts[5])
        let listedLonger = CompressedPages(frames: [(whole.withUnsafeBufferPointer { MappedArray(copying: $0) }, texts[5].count + 1)])
        #expect(listedLonger.page(0).isEmpty)
    }
}
