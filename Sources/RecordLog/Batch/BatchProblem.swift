/// Why bytes at some position are not a valid batch.
package enum BatchProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer bytes remain than the header or the declared length needs: a torn write, if at the end.
    case incomplete(available: Int, needed: Int)
    /// `batchLength` is below the header's size or above the allowed maximum.
    case badLength(Int32)
    case badMagic(Int8)
    case crcMismatch(stored: UInt32, computed: UInt32)
    /// `lastOffsetDelta` or `recordCount` are inconsistent with each other.
    case badRecordCount(count: Int32, lastOffsetDelta: Int32)
    /// The base offset is not the one the log expects next.
    case offsetDiscontinuity(expected: Int64, found: Int64)
    /// The batch's offsets leave the range a log's offsets lie in: 0 up to 2⁶³ − 2, so that the
    /// offset after the batch is an `Int64` too.
    case offsetsOutOfRange(baseOffset: Int64, lastOffsetDelta: Int32)
    /// The records section does not start with a valid LZ4 frame header.
    case badFrameHeader(String)
    /// A codec this engine does not decode.
    case unsupportedCodec(Int16)

    package var description: String {
        switch self {
        case .incomplete(let available, let needed): "incomplete batch: \(available) of \(needed) bytes present"
        case .badLength(let length): "impossible batch length \(length)"
        case .badMagic(let magic): "magic byte \(magic), expected 2"
        case .crcMismatch(let stored, let computed):
            "CRC-32C mismatch: stored \(hex(stored)), computed \(hex(computed))"
        case .badRecordCount(let count, let delta): "record count \(count) does not fit last offset delta \(delta)"
        case .offsetDiscontinuity(let expected, let found): "base offset \(found), expected \(expected)"
        case .offsetsOutOfRange(let base, let delta):
            "base offset \(base) and last offset delta \(delta) leave the range of offsets (0 to 2^63 - 2)"
        case .badFrameHeader(let reason): "bad LZ4 frame header: \(reason)"
        case .unsupportedCodec(let codec): "unsupported compression codec \(codec)"
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
