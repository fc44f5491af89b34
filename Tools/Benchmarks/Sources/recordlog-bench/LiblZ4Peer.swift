import CLZ4Peer

/// W10's peer: liblz4 itself, called directly, with the frame settings RecordLog writes
/// (independent 64 KiB blocks, no checksums, level 1) — what compressing costs with no record
/// framing, CRC or batch around it.
enum LiblZ4Peer {
    struct Failure: Error {}

    /// Compresses `source` as one frame into `output`, kept from call to call (grown, never
    /// shrunk), as a writer keeps its buffer; returns the frame's size.
    static func compressFrame(_ source: [UInt8], into output: inout [UInt8]) throws -> Int {
        var preferences = LZ4F_preferences_t()
        preferences.frameInfo.blockSizeID = LZ4F_max64KB
        preferences.frameInfo.blockMode = LZ4F_blockIndependent
        preferences.compressionLevel = 0
        let bound = LZ4F_compressFrameBound(source.count, &preferences)
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        let written = output.withUnsafeMutableBytes { out in
            source.withUnsafeBytes { input in
                LZ4F_compressFrame(out.baseAddress, out.count, input.baseAddress, input.count, &preferences)
            }
        }
        guard LZ4F_isError(written) == 0 else { throw Failure() }
        return written
    }
}
