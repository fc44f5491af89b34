import CLZ4
import Testing
@testable import StorageKit
import TestSupport

@Suite struct LZ4FrameTests {
    enum Content: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case empty, oneByte, randomMiB, compressibleMiB, textSeveralBlocks, exactly64KiB

        var testDescription: String { rawValue }

        var bytes: [UInt8] {
            var random = SeededGenerator(seed: 64)
            switch self {
            case .empty: return []
            case .oneByte: return [0x2A]
            case .randomMiB: return random.bytes(1 << 20)
            case .compressibleMiB: return Array(String(repeating: "compressible event payload ", count: 40_000).utf8.prefix(1 << 20))
            case .textSeveralBlocks: return LZ4FrameTests.wordSoup(bytes: 300_000)
            case .exactly64KiB: return random.bytes(64 * 1024)
            }
        }
    }

    /// Compressible text that does not repeat itself: random words and numbers, so a block
    /// compresses better when it may refer to the blocks before it.
    static func wordSoup(bytes count: Int) -> [UInt8] {
        let words = ["log", "batch", "offset", "segment", "record", "kafka", "frame", "index", "zone", "note", "value",
            "header", "key", "time", "stamp", "crc", "lz4", "block", "linked", "partition"]
        var random = SeededGenerator(seed: 2024)
        var text: [UInt8] = []
        text.reserveCapacity(count + 32)
        while text.count < count {
            text += Array(words.randomElement(using: &random)!.utf8)
            text += Array(" \(Int.random(in: 0..<100_000, using: &random)) ".utf8)
        }
        return Array(text.prefix(count))
    }

    /// The blocks of a frame we wrote (7-byte header, no checksums): (stored size, compressed?).
    static func blocks(of frame: [UInt8]) -> [(size: Int, compressed: Bool)]? {
        var position = 7
        var blocks: [(Int, Bool)] = []
        while position + 4 <= frame.count {
            let word = UInt32(frame[position]) | UInt32(frame[position + 1]) << 8 | UInt32(frame[position + 2]) << 16
                | UInt32(frame[position + 3]) << 24
            position += 4
            if word == 0 { return position == frame.count ? blocks : nil }
            let size = Int(word & 0x7FFF_FFFF)
            blocks.append((size, word & 0x8000_0000 == 0))
            position += size
        }
        return nil
    }

    /// A frame made by liblz4 with the given block mode and declared content size.
    static func liblz4Frame(_ source: [UInt8], linked: Bool, declareContentSize: Bool = false) -> [UInt8] {
        var preferences = LZ4F_preferences_t()
        preferences.frameInfo.blockSizeID = LZ4F_max64KB
        preferences.frameInfo.blockMode = linked ? LZ4F_blockLinked : LZ4F_blockIndependent
        preferences.frameInfo.contentSize = declareContentSize ? UInt64(source.count) : 0
        var output = [UInt8](repeating: 0, count: LZ4F_compressFrameBound(source.count, &preferences))
        let written = output.withUnsafeMutableBytes { out in
            source.withUnsafeBytes { input in
                LZ4F_compressFrame(out.baseAddress, out.count, input.baseAddress, input.count, &preferences)
            }
        }
        precondition(LZ4F_isError(written) == 0, "liblz4 failed to compress")
        return Array(output.prefix(written))
    }

    /// The reason of a `StorageError.malformedFrame`, nil for any other outcome.
    static func malformedFrameReason(_ body: () throws -> [UInt8]) -> String? {
        do {
            _ = try body()
            return nil
        } catch StorageError.malformedFrame(let reason) {
            return reason
        } catch {
            return nil
        }
    }

    @Test("compress then decompress returns the input", arguments: Content.allCases)
    func roundTrip(content: Content) throws {
        let source = content.bytes
        let frame = try LZ4Frame.compress(source)
        #expect(Array(frame.prefix(4)) == LZ4Frame.magic)
        #expect(try LZ4Frame.decompress(frame, limit: source.count) == source)
        #expect(try LZ4Frame.decompress(frame, sizeHint: source.count, limit: 1 << 24) == source)
        #expect(try LZ4Frame.decompress(frame, sizeHint: 1, limit: 1 << 24) == source)
        // Appending to a buffer that already holds bytes keeps them.
        var output: [UInt8] = [1, 2, 3]
        try source.withUnsafeBytes { try LZ4Frame.compress($0, appendingTo: &output) }
        #expect(Array(output.prefix(3)) == [1, 2, 3])
        #expect(Array(output.dropFirst(3)) == frame)
    }

    @Test("a frame compressed on two threads is the one-thread frame, byte for byte", arguments: Content.allCases)
    func twoThreadsSameFrame(content: Content) throws {
        var sources = [content.bytes]
        // Block counts odd and even, and a last block short, full or of one byte.
        if content == .textSeveralBlocks {
            for size in [2 * LZ4Frame.blockSize - 1, 2 * LZ4Frame.blockSize, 2 * LZ4Frame.blockSize + 1, 5 * LZ4Frame.blockSize + 77] {
                sources.append(Self.wordSoup(bytes: size))
            }
        }
        for source in sources {
            let serial = try LZ4Frame.compress(source)
            var output: [UInt8] = [9, 8, 7]
            try source.withUnsafeBytes { try LZ4Frame.compress($0, appendingTo: &output, twoThreadsFrom: 0) }
            #expect(Array(output.prefix(3)) == [9, 8, 7], "\(source.count) bytes")
            #expect(Array(output.dropFirst(3)) == serial, "\(source.count) bytes")
            #expect(try LZ4Frame.decompress(Array(output.dropFirst(3)), limit: source.count) == source)
        }
    }

    @Test("compressing into memory the caller holds: the frame of compress(_:), its size returned, on one thread or two", arguments: [Int.max, 0])
    func compressIntoCallersMemory(twoThreadsFrom: Int) throws {
        for source in [[], [7], Self.wordSoup(bytes: 3 * LZ4Frame.blockSize + 5)] {
            let expected = try LZ4Frame.compress(source)
            let bound = LZ4Frame.compressedBound(source.count, twoThreadsFrom: twoThreadsFrom)
            var room = [UInt8](repeating: 0xCC, count: bound + 8)
            let written = try source.withUnsafeBytes { source in
                try room.withUnsafeMutableBytes {
                    try LZ4Frame.compress(source, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<bound]), twoThreadsFrom: twoThreadsFrom)
                }
            }
            #expect(Array(room[..<written]) == expected, "\(source.count) bytes")
            #expect(room[bound...].allSatisfy { $0 == 0xCC }, "nothing written past the memory given")
        }
    }

    @Test("memory smaller than the bound is refused before anything is written")
    func compressIntoTooLittleMemory() throws {
        let source = Self.wordSoup(bytes: 10_000)
        var room = [UInt8](repeating: 0xCC, count: LZ4Frame.compressedBound(source.count) - 1)
        #expect(throws: StorageError.self) {
            try source.withUnsafeBytes { source in try room.withUnsafeMutableBytes { try LZ4Frame.compress(source, into: $0) } }
        }
        #expect(room.allSatisfy { $0 == 0xCC })
    }

    @Test("our frames declare independent 64 KiB blocks, no checksums, no content size", arguments: Content.allCases)
    func frameFlags(content: Content) throws {
        let frame = try LZ4Frame.compress(content.bytes)
        let flags = frame[4], blockDescriptor = frame[5]
        #expect(flags & 0b0010_0000 != 0, "FLG bit 5 (block independence) must be set: Kafka rejects linked blocks")
        #expect(flags == 0x60, "version 01, independent blocks, no block/content checksum, no content size")
        #expect(blockDescriptor == 0x40, "BD 0x40: 64 KiB maximum block size")
        let blocks = try #require(Self.blocks(of: frame))
        #expect(blocks.allSatisfy { $0.size <= 64 * 1024 })
        let expectedBlocks = (content.bytes.count + 64 * 1024 - 1) / (64 * 1024)
        #expect(blocks.count == expectedBlocks)
    }

    @Test("a frame liblz4 wrote with LINKED blocks decodes")
    func linkedFrameDecodes() throws {
        let source = Self.wordSoup(bytes: 400_000)
        let linked = Self.liblz4Frame(source, linked: true)
        #expect(linked[4] & 0b0010_0000 == 0, "the fixture frame really uses linked blocks")
        let independent = try LZ4Frame.compress(source)
        #expect(linked.count < independent.count, "linking matters: later blocks refer to earlier ones")
        #expect(try LZ4Frame.decompress(linked, limit: 1 << 20) == source)
        #expect(try LZ4Frame.decompress(linked, sizeHint: 10, limit: 1 << 20) == source)
    }

    @Test("a frame with a declared content size within the limit decodes")
    func declaredContentSizeWithinLimit() throws {
        let source = Self.wordSoup(bytes: 100_000)
        let frame = Self.liblz4Frame(source, linked: false, declareContentSize: true)
        #expect(try LZ4Frame.decompress(frame, limit: 100_000) == source)
    }

    @Test("a frame whose header claims more than the limit is refused")
    func oversizedClaimIsRefused() throws {
        let source = Self.wordSoup(bytes: 10_000)
        let frame = Self.liblz4Frame(source, linked: false, declareContentSize: true)
        #expect(throws: StorageError.decompressedSizeExceeded(limit: 1024)) {
            try LZ4Frame.decompress(frame, limit: 1024)
        }
    }

    /// XXH32 with seed 0 of fewer than 16 bytes: what an LZ4 frame's header checksum is made of.
    static func xxh32Short(_ bytes: [UInt8]) -> UInt32 {
        let p1: UInt32 = 2_654_435_761, p2: UInt32 = 2_246_822_519, p3: UInt32 = 3_266_489_917
        let p4: UInt32 = 668_265_263, p5: UInt32 = 374_761_393
        func rotl(_ x: UInt32, _ r: UInt32) -> UInt32 { (x << r) | (x >> (32 - r)) }
        var hash = p5 &+ UInt32(bytes.count)
        var index = 0
        while index + 4 <= bytes.count {
            let word = UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
            hash = rotl(hash &+ word &* p3, 17) &* p4
            index += 4
        }
        while index < bytes.count {
            hash = rotl(hash &+ UInt32(bytes[index]) &* p5, 11) &* p1
            index += 1
        }
        hash ^= hash >> 15
        hash = hash &* p2
        hash ^= hash >> 13
        hash = hash &* p3
        return hash ^ (hash >> 16)
    }

    @Test("a small frame that claims a huge content size is malformed, refused before anything that size is allocated")
    func hugeClaimOfASmallFrame() throws {
        var frame = Self.liblz4Frame(Self.wordSoup(bytes: 1000), linked: false, declareContentSize: true)
        // Bytes 6..<14: the declared content size (little-endian); byte 14: the header checksum.
        let claim: UInt64 = 200 << 20
        for index in 0..<8 { frame[6 + index] = UInt8(truncatingIfNeeded: claim >> (8 * UInt64(index))) }
        frame[14] = UInt8(truncatingIfNeeded: Self.xxh32Short(Array(frame[4..<14])) >> 8)
        let reason = Self.malformedFrameReason { try LZ4Frame.decompress(frame, limit: 256 << 20) }
        #expect(reason?.contains("bytes of LZ4 can hold") == true, "\(String(describing: reason))")
    }

    @Test("decompression sizes its buffer by the frame's own size, not by a large hint or limit")
    func bufferBoundedByFrameSize() throws {
        let source = Self.wordSoup(bytes: 3000)
        let frame = try LZ4Frame.compress(source)
        var buffer: [UInt8] = []
        let count = try frame.withUnsafeBytes {
            try LZ4Frame.decompress($0, reusing: &buffer, sizeHint: 1 << 30, limit: 256 << 20)
        }
        #expect(Array(buffer[..<count]) == source)
        #expect(buffer.count <= LZ4Frame.decompressedBound(frameBytes: frame.count))
    }

    @Test("a frame that expands past the limit is refused", arguments: [false, true])
    func realExpansionIsRefused(linked: Bool) throws {
        let zeros = [UInt8](repeating: 0, count: 4 << 20)
        let frame = linked ? Self.liblz4Frame(zeros, linked: true) : try LZ4Frame.compress(zeros)
        #expect(frame.count < 64 * 1024)
        #expect(throws: StorageError.decompressedSizeExceeded(limit: 1 << 20)) {
            try LZ4Frame.decompress(frame, limit: 1 << 20)
        }
        #expect(throws: StorageError.decompressedSizeExceeded(limit: 1 << 20)) {
            try LZ4Frame.decompress(frame, sizeHint: 8 << 20, limit: 1 << 20)
        }
    }

    @Test("content of exactly the limit decodes; one byte over is refused", arguments: [2, 255, 256, 65_536, 100_000, 1 << 20])
    func exactlyTheLimit(size: Int) throws {
        let source = Self.wordSoup(bytes: size)
        let frame = try LZ4Frame.compress(source)
        #expect(try LZ4Frame.decompress(frame, limit: size) == source)
        #expect(throws: StorageError.decompressedSizeExceeded(limit: size - 1)) {
            try LZ4Frame.decompress(frame, limit: size - 1)
        }
    }

    /// The frame decompressed into memory of `room` bytes the test holds: the bytes written
    /// there and the count returned.
    static func decompressIntoRoom(_ frame: [UInt8], room: Int) throws -> [UInt8] {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: room, alignment: 16)
        defer { memory.deallocate() }
        let count = try frame.withUnsafeBytes { try LZ4Frame.decompress($0, into: memory) }
        return Array(memory.prefix(count))
    }

    @Test("decompressing into memory the caller holds: exactly the content fits, more room is left as it was, one byte less is refused",
        arguments: [1, 255, 65_536, 65_537, 100_000, 1 << 20])
    func decompressIntoCallersMemory(size: Int) throws {
        let source = Self.wordSoup(bytes: size)
        let frame = try LZ4Frame.compress(source)
        #expect(try Self.decompressIntoRoom(frame, room: size) == source)
        #expect(try Self.decompressIntoRoom(frame, room: size + 100_000) == source)
        #expect(throws: StorageError.decompressedSizeExceeded(limit: size - 1)) { try Self.decompressIntoRoom(frame, room: size - 1) }
    }

    @Test("frames of other writers decode into the caller's memory: linked blocks, a declared content size; a declared size past the room is refused first")
    func decompressOtherFramesIntoCallersMemory() throws {
        let source = Self.wordSoup(bytes: 300_000)
        #expect(try Self.decompressIntoRoom(Self.liblz4Frame(source, linked: true), room: source.count) == source)
        let declared = Self.liblz4Frame(source, linked: false, declareContentSize: true)
        #expect(try Self.decompressIntoRoom(declared, room: source.count) == source)
        #expect(throws: StorageError.decompressedSizeExceeded(limit: 1000)) { try Self.decompressIntoRoom(declared, room: 1000) }
    }

    @Test("into the caller's memory, a cut frame or trailing bytes are a malformed frame")
    func malformedIntoCallersMemory() throws {
        let source = Self.wordSoup(bytes: 200_000)
        let frame = try LZ4Frame.compress(source)
        for cut in [0, 6, 7, 11, frame.count / 2, frame.count - 4, frame.count - 1] {
            #expect(Self.malformedFrameReason { try Self.decompressIntoRoom(Array(frame.prefix(cut)), room: source.count) } != nil, "cut to \(cut)")
        }
        #expect(Self.malformedFrameReason { try Self.decompressIntoRoom(frame + [0], room: source.count + 10) } != nil)
    }

    @Test("a limit of zero admits no byte")
    func zeroLimit() throws {
        let frame = try LZ4Frame.compress([0x6B])
        #expect(throws: StorageError.decompressedSizeExceeded(limit: 0)) { try LZ4Frame.decompress(frame, limit: 0) }
    }

    @Test("every truncation of a frame is a malformed frame", arguments: [Content.oneByte, .textSeveralBlocks])
    func truncatedFrames(content: Content) throws {
        let source = content.bytes
        let frame = try LZ4Frame.compress(source)
        // Every cut of a short frame; for a long one, every cut near the header, the block
        // boundaries and the end, and a stride through the rest.
        let blockStarts = try #require(Self.blocks(of: frame)).reduce(into: [7]) { starts, block in
            starts.append(starts.last! + 4 + block.size)
        }
        var cuts = Set(0..<min(frame.count, 64))
        for start in blockStarts { cuts.formUnion(max(0, start - 6)..<min(frame.count, start + 6)) }
        cuts.formUnion(stride(from: 0, to: frame.count, by: 997))
        cuts.formUnion(max(0, frame.count - 16)..<frame.count)
        for cut in cuts.sorted() {
            let reason = Self.malformedFrameReason { try LZ4Frame.decompress(Array(frame.prefix(cut)), limit: 1 << 24) }
            #expect(reason != nil, "a frame cut to \(cut) of \(frame.count) bytes must be malformed")
        }
    }

    @Test("bytes after the end of a frame are a malformed frame", arguments: [[0x00], [0xFF, 0xFF], LZ4Frame.magic])
    func trailingBytes(trailer: [UInt8]) throws {
        let frame = try LZ4Frame.compress(Array("trailing".utf8))
        #expect(Self.malformedFrameReason { try LZ4Frame.decompress(frame + trailer, limit: 1 << 20) } != nil)
        #expect(Self.malformedFrameReason { try LZ4Frame.decompress(frame + frame, limit: 1 << 20) } != nil)
    }

    @Test("garbage is a malformed frame, never a crash", arguments: [0, 3, 6, 7, 8, 100])
    func garbage(count: Int) {
        var random = SeededGenerator(seed: UInt64(count))
        let bytes = random.bytes(count)
        #expect(Self.malformedFrameReason { try LZ4Frame.decompress(bytes, limit: 1 << 20) } != nil)
        // A valid magic number followed by nonsense, too.
        #expect(Self.malformedFrameReason { try LZ4Frame.decompress(LZ4Frame.magic + bytes, limit: 1 << 20) } != nil)
    }

    @Test("decompressing into a reused buffer: same bytes, and the limit holds however large the buffer")
    func reusedDecompressionBuffer() throws {
        let source = Self.wordSoup(bytes: 50_000)
        let frame = try LZ4Frame.compress(source)
        var buffer = [UInt8](repeating: 0xAA, count: 200_000)
        let count = try frame.withUnsafeBytes { try LZ4Frame.decompress($0, reusing: &buffer, limit: 1 << 20) }
        #expect(Array(buffer[..<count]) == source)
        var small: [UInt8] = []
        let again = try frame.withUnsafeBytes { try LZ4Frame.decompress($0, reusing: &small, sizeHint: 100, limit: 1 << 20) }
        #expect(Array(small[..<again]) == source, "a buffer too small grows")
        #expect(throws: StorageError.decompressedSizeExceeded(limit: 10_000)) {
            _ = try frame.withUnsafeBytes { try LZ4Frame.decompress($0, reusing: &buffer, limit: 10_000) }
        }
    }
}
