import CLZ4

/// LZ4 frames as Kafka writes them: independent 64 KiB blocks, no checksums beyond the frame
/// header's own, no content size. Decoding accepts any valid frame — linked blocks, block and
/// content checksums, a content size — and never produces more than a caller-set limit.
///
/// ```swift
/// var frame: [UInt8] = []
/// try LZ4Frame.compress(bytes, appendingTo: &frame)
/// let back = try LZ4Frame.decompress(frame, limit: 1 << 20)
/// ```
package enum LZ4Frame {
    /// The four bytes that start every LZ4 frame (0x184D2204, little-endian).
    package static let magic: [UInt8] = [0x04, 0x22, 0x4D, 0x18]

    static func preferences() -> LZ4F_preferences_t {
        var preferences = LZ4F_preferences_t()
        preferences.frameInfo.blockSizeID = LZ4F_max64KB
        preferences.frameInfo.blockMode = LZ4F_blockIndependent
        preferences.frameInfo.contentChecksumFlag = LZ4F_noContentChecksum
        preferences.frameInfo.blockChecksumFlag = LZ4F_noBlockChecksum
        preferences.frameInfo.frameType = LZ4F_frame
        preferences.frameInfo.contentSize = 0
        preferences.compressionLevel = 0  // liblz4's fast default (level 1)
        return preferences
    }

    /// Compresses `source` into one frame appended to `output`.
    package static func compress(_ source: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) throws {
        try compress(source, appendingTo: &output, twoThreadsFrom: .max)
    }

    /// The bytes of a frame's header as we write it: magic, FLG, BD, header checksum.
    static let headerSize = 7
    /// The bytes of a frame's end mark (no content checksum follows it).
    static let endMarkSize = 4
    /// The most bytes of one block.
    static let blockSize = 64 << 10

    /// Where a source of `count` bytes is split between two threads when two compress it from
    /// `twoThreadsFrom` bytes on: at a block boundary, half of the blocks each; nil for one thread.
    private static func split(_ count: Int, twoThreadsFrom: Int) -> Int? {
        let blocks = (count + blockSize - 1) / blockSize
        guard count >= twoThreadsFrom, blocks >= 2 else { return nil }
        return (blocks / 2) * blockSize
    }

    /// The most bytes ``compress(_:into:twoThreadsFrom:)`` writes for `count` bytes of source.
    package static func compressedBound(_ count: Int, twoThreadsFrom: Int = .max) -> Int {
        var preferences = preferences()
        guard let split = split(count, twoThreadsFrom: twoThreadsFrom) else { return LZ4F_compressFrameBound(count, &preferences) }
        // Two frames, the second's blocks written over the first's end mark: within both bounds.
        return LZ4F_compressFrameBound(split, &preferences) + LZ4F_compressFrameBound(count - split, &preferences)
    }

    /// Compresses `source` into one frame written at the start of `destination`, which must hold
    /// ``compressedBound(_:twoThreadsFrom:)`` bytes, and returns the frame's size; from
    /// `twoThreadsFrom` bytes of source (and two blocks), the blocks of its second half are
    /// compressed on a second thread. Writing into memory the caller holds, a writer's frames
    /// need neither a buffer of their own nor the zeroing of one.
    ///
    /// The blocks are independent, so the frame is the same, byte for byte, on one thread or
    /// two: the first half is compressed as a frame and the second as another, and the second's
    /// blocks replace the first's end mark.
    package static func compress(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer, twoThreadsFrom: Int = .max
    ) throws -> Int {
        guard destination.count >= compressedBound(source.count, twoThreadsFrom: twoThreadsFrom), let output = destination.baseAddress else {
            throw StorageError.malformedFrame(reason: "compression failed: \(destination.count) bytes cannot hold the frame of \(source.count)")
        }
        guard let split = split(source.count, twoThreadsFrom: twoThreadsFrom), let base = source.baseAddress else {
            var preferences = preferences()
            let written = LZ4F_compressFrame(output, destination.count, source.baseAddress, source.count, &preferences)
            if LZ4F_isError(written) != 0 { throw StorageError.malformedFrame(reason: "compression failed: \(errorName(written))") }
            return written
        }
        let tail = TailFrame(source: UnsafeRawBufferPointer(start: base + split, count: source.count - split))
        defer { tail.deallocate() }
        // The second thread reads `source` and writes its own buffer until `run` returns.
        var preferences = preferences()
        var first = 0
        let written = try SecondThread.run({ tail.compress() }, while: {
            first = LZ4F_compressFrame(output, destination.count, base, split, &preferences)
        })
        if LZ4F_isError(first) != 0 { throw StorageError.malformedFrame(reason: "compression failed: \(errorName(first))") }
        if LZ4F_isError(written) != 0 { throw StorageError.malformedFrame(reason: "compression failed: \(errorName(written))") }
        guard first >= headerSize + endMarkSize, written >= headerSize + endMarkSize else {
            throw StorageError.malformedFrame(reason: "compression failed: a frame shorter than its header and end mark")
        }
        let blocks = UnsafeRawBufferPointer(rebasing: tail.frame[headerSize..<written])
        if let blocksStart = blocks.baseAddress { (output + first - endMarkSize).copyMemory(from: blocksStart, byteCount: blocks.count) }
        return first - endMarkSize + blocks.count
    }

    /// Compresses `source` into one frame appended to `output`, the blocks of its second half on
    /// a second thread when `source` holds at least `twoThreadsFrom` bytes (and two blocks), as
    /// ``compress(_:into:twoThreadsFrom:)`` does.
    package static func compress(_ source: UnsafeRawBufferPointer, appendingTo output: inout [UInt8], twoThreadsFrom: Int) throws {
        let start = output.count
        let bound = compressedBound(source.count, twoThreadsFrom: twoThreadsFrom)
        output.append(contentsOf: repeatElement(0, count: bound))
        do {
            let written = try output.withUnsafeMutableBytes { buffer in
                try compress(source, into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]), twoThreadsFrom: twoThreadsFrom)
            }
            output.removeSubrange((start + written)...)
        } catch {
            output.removeSubrange(start...)
            throw error
        }
    }

    /// Compresses a byte array into a new frame.
    package static func compress(_ source: [UInt8]) throws -> [UInt8] {
        var output: [UInt8] = []
        try source.withUnsafeBytes { try compress($0, appendingTo: &output) }
        return output
    }

    /// Decompresses exactly one frame that fills `source`.
    ///
    /// - Parameters:
    ///   - sizeHint: the expected decompressed size; a good hint saves a copy.
    ///   - limit: the most bytes the frame may decompress to. A frame that claims or produces more
    ///     throws `StorageError.decompressedSizeExceeded` before allocating past the limit.
    /// - Throws: `StorageError.malformedFrame` for anything that is not one whole, valid frame.
    package static func decompress(_ source: UnsafeRawBufferPointer, sizeHint: Int = 0, limit: Int) throws -> [UInt8] {
        var output: [UInt8] = []
        let count = try decompress(source, reusing: &output, sizeHint: sizeHint, limit: limit)
        output.removeLast(output.count - count)
        return output
    }

    /// Decompresses exactly one frame that fills `source` into the start of `output`, reusing its
    /// memory (it grows when too small, never shrinks), and returns how many bytes the frame
    /// held: `output[..<count]`. A scan decompressing batch after batch into one buffer touches
    /// no fresh memory once the buffer is large enough.
    ///
    /// - Parameters and errors: as ``decompress(_:sizeHint:limit:)-(UnsafeRawBufferPointer,_,_)``.
    package static func decompress(
        _ source: UnsafeRawBufferPointer, reusing output: inout [UInt8], sizeHint: Int = 0, limit: Int
    ) throws -> Int {
        try decode(source) { context, info, consumed in
            if info.contentSize > UInt64(limit) { throw StorageError.decompressedSizeExceeded(limit: limit) }
            let callerLimit = limit
            let limit = min(limit, decompressedBound(frameBytes: source.count))
            let firstCapacity = max(0, min(limit, info.contentSize > 0 ? Int(info.contentSize) : max(sizeHint, 256)))
            if output.count < firstCapacity {
                // With room (an eighth more, or twice the old size): batches of a scan differ by a
                // few bytes, and each reallocation zeroes fresh pages (in a change fetch's first
                // batches, a fifth of its time went to those page faults).
                output = [UInt8](repeating: 0, count: min(limit, max(firstCapacity + firstCapacity / 8, 2 * output.count)))
            }

            var decoder = ChunkedOutput(limit: limit)
            defer { decoder.deallocate() }
            let firstCount: Int
            do {
                firstCount = try output.withUnsafeMutableBytes { buffer in
                    // Never more than the limit in the first chunk: past it, the decoder stops.
                    try decoder.run(
                        context: context, source: source, consumed: consumed,
                        firstChunk: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, limit)]))
                }
            } catch StorageError.decompressedSizeExceeded where limit < callerLimit {
                throw StorageError.malformedFrame(reason: "the frame decodes to more than \(source.count) bytes of LZ4 can hold")
            }
            var count = firstCount
            if decoder.total > firstCount {
                output.removeLast(output.count - firstCount)
                decoder.appendOverflow(to: &output)
                count = output.count
            }
            return count
        }
    }

    /// Decompresses exactly one frame that fills `source` into the start of `destination`, memory
    /// the caller holds, and returns how many bytes the frame held. For a reader that knows what
    /// a frame decompresses to: its bytes go straight where they are kept, with no buffer of
    /// their own, no zeroing and no copy.
    ///
    /// - Throws: `StorageError.decompressedSizeExceeded` when the frame holds more than
    ///   `destination` does (what was decoded until then is in `destination`);
    ///   `StorageError.malformedFrame` for anything that is not one whole, valid frame.
    package static func decompress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        try decode(source) { context, info, consumed in
            let room = destination.count
            if info.contentSize > UInt64(room) { throw StorageError.decompressedSizeExceeded(limit: room) }
            // One byte of room past `destination`: a frame that fills it exactly and is cut before
            // its end mark reads as truncated, and one that holds more shows it with that byte.
            var decoder = ChunkedOutput(limit: room + 1)
            defer { decoder.deallocate() }
            let count: Int
            do {
                count = try decoder.run(context: context, source: source, consumed: consumed, firstChunk: destination)
            } catch StorageError.decompressedSizeExceeded {
                throw StorageError.decompressedSizeExceeded(limit: room)
            }
            guard decoder.total == count else { throw StorageError.decompressedSizeExceeded(limit: room) }
            return count
        }
    }

    /// Reads the header of the one frame that fills `source` and calls `body` with a
    /// decompression context past it, the frame's info and the header's length; checks that the
    /// count `body` returns is the content size the frame declares, if it declares one.
    private static func decode(
        _ source: UnsafeRawBufferPointer, _ body: (OpaquePointer, LZ4F_frameInfo_t, Int) throws -> Int
    ) throws -> Int {
        var context: OpaquePointer?
        let created = LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))
        guard LZ4F_isError(created) == 0, let context else {
            throw StorageError.malformedFrame(reason: "cannot create an LZ4 decompression context")
        }
        defer { LZ4F_freeDecompressionContext(context) }
        guard let sourceBase = source.baseAddress, source.count >= 7 else {
            throw StorageError.malformedFrame(reason: "\(source.count) bytes is shorter than a frame header")
        }

        // Read the header first: a declared content size is checked against the limits and,
        // when it fits, sizes the output exactly.
        var info = LZ4F_frameInfo_t()
        var consumed = source.count
        let headerResult = LZ4F_getFrameInfo(context, &info, sourceBase, &consumed)
        if LZ4F_isError(headerResult) != 0 {
            throw StorageError.malformedFrame(reason: errorName(headerResult))
        }
        // Bounded by the frame's own size as well as by the caller's limit: a small frame that
        // claims a huge size must not make us allocate it.
        if info.contentSize > UInt64(decompressedBound(frameBytes: source.count)) {
            throw StorageError.malformedFrame(
                reason: "the frame declares \(info.contentSize) bytes, more than \(source.count) bytes of LZ4 can hold")
        }
        let count = try body(context, info, consumed)
        if info.contentSize > 0, UInt64(count) != info.contentSize {
            throw StorageError.malformedFrame(
                reason: "frame declares \(info.contentSize) bytes but holds \(count)")
        }
        return count
    }

    /// Decompresses a frame held in a byte array.
    package static func decompress(_ source: [UInt8], sizeHint: Int = 0, limit: Int) throws -> [UInt8] {
        try source.withUnsafeBytes { try decompress($0, sizeHint: sizeHint, limit: limit) }
    }

    /// The most bytes `frameBytes` bytes of LZ4 frame can decompress to: a block expands at most
    /// 255:1 (each extra byte of a match's length adds 255 bytes of output), so no valid frame
    /// exceeds this, however large it claims to be.
    static func decompressedBound(frameBytes: Int) -> Int {
        let (product, overflow) = frameBytes.multipliedReportingOverflow(by: 255)
        return overflow ? Int.max : product + 4096
    }

    static func errorName(_ code: Int) -> String {
        guard let name = LZ4F_getErrorName(code) else { return "LZ4F error \(code)" }
        return String(cString: name)
    }
}

/// Output for one frame's decoding: the caller's first buffer, then extra chunks that stay
/// allocated, and unmoved, until the frame is done. liblz4 reads earlier output as the
/// dictionary of linked blocks, so no output byte may move while the frame is being decoded.
private struct ChunkedOutput {
    let limit: Int
    var overflow: [(buffer: UnsafeMutableRawBufferPointer, count: Int)] = []
    var total = 0

    init(limit: Int) { self.limit = limit }

    /// Decodes the rest of the frame; returns how many bytes went into `firstChunk`.
    mutating func run(
        context: OpaquePointer, source: UnsafeRawBufferPointer, consumed initiallyConsumed: Int,
        firstChunk: UnsafeMutableRawBufferPointer
    ) throws(StorageError) -> Int {
        guard let sourceBase = source.baseAddress else { return 0 }
        var consumed = initiallyConsumed
        var chunk = firstChunk
        var produced = 0
        var firstCount = 0
        var inFirst = true
        while true {
            var outputSize = chunk.count - produced
            var inputSize = source.count - consumed
            let hint = LZ4F_decompress(
                context, chunk.baseAddress.map { $0 + produced }, &outputSize,
                sourceBase + consumed, &inputSize, nil)
            if LZ4F_isError(hint) != 0 { throw StorageError.malformedFrame(reason: LZ4Frame.errorName(hint)) }
            consumed += inputSize
            produced += outputSize
            total += outputSize
            if inFirst { firstCount = produced } else { overflow[overflow.count - 1].count = produced }
            if hint == 0 {
                guard consumed == source.count else {
                    throw StorageError.malformedFrame(reason: "\(source.count - consumed) bytes follow the end of the frame")
                }
                return firstCount
            }
            if produced < chunk.count {
                // Room was left, so liblz4 is waiting for input that is not there.
                if consumed == source.count {
                    throw StorageError.malformedFrame(reason: "the frame is truncated")
                }
                continue
            }
            // The chunk is full: continue into a new one, within the limit.
            guard total < limit else { throw StorageError.decompressedSizeExceeded(limit: limit) }
            let size = min(limit - total, max(64 * 1024, total))
            chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            overflow.append((chunk, 0))
            produced = 0
            inFirst = false
        }
    }

    func appendOverflow(to result: inout [UInt8]) {
        guard !overflow.isEmpty else { return }
        result.reserveCapacity(total)
        for (buffer, count) in overflow {
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    func deallocate() {
        for (buffer, _) in overflow { buffer.deallocate() }
    }
}

/// The second half of a frame, compressed on another thread into a buffer of its own: its
/// source and that buffer stay valid until the compressing thread has waited for it.
private final class TailFrame: @unchecked Sendable {
    // @unchecked: the pointers are read by one thread at a time (the second, then the first once
    // `SecondThread.run` returned).
    let source: UnsafeRawBufferPointer
    let frame: UnsafeMutableRawBufferPointer

    init(source: UnsafeRawBufferPointer) {
        self.source = source
        var preferences = LZ4Frame.preferences()
        frame = .allocate(byteCount: LZ4F_compressFrameBound(source.count, &preferences), alignment: 16)
    }

    /// Compresses `source` into `frame` as one frame; returns liblz4's result (a size or an error code).
    func compress() -> Int {
        var preferences = LZ4Frame.preferences()
        return LZ4F_compressFrame(frame.baseAddress, frame.count, source.baseAddress, source.count, &preferences)
    }

    func deallocate() { frame.deallocate() }
}
