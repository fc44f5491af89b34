import Foundation
import RecordLog

/// Reads a whole segment file into batches, carrying on past damage: after an invalid stretch it
/// resumes at the next position where a valid batch starts, so a dump shows what follows.
public enum SegmentScan {
    /// Scans the segment at `path`.
    ///
    /// - Parameter expectedBaseOffset: the first batch's base offset (from the file name), if known.
    /// - Throws: ``InspectError/unreadable(_:)``.
    public static func scan(path: String, expectedBaseOffset: Int64?) throws(InspectError) -> [ScannedBatch] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        return scan(bytes: Array(data), expectedBaseOffset: expectedBaseOffset)
    }

    /// Scans segment bytes; see ``scan(path:expectedBaseOffset:)``.
    public static func scan(bytes: [UInt8], expectedBaseOffset: Int64?) -> [ScannedBatch] {
        var batches: [ScannedBatch] = []
        var position = 0
        var expected = expectedBaseOffset
        while position < bytes.count {
            switch check(bytes, at: position) {
            case .success(let batch):
                var problem: String?
                if let expected, batch.header.baseOffset != expected {
                    problem = BatchProblem.offsetDiscontinuity(expected: expected, found: batch.header.baseOffset).description
                }
                batches.append(ScannedBatch(
                    position: Int64(position), size: batch.header.totalSize, header: batch.header, batch: batch, problem: problem))
                expected = batch.header.lastOffset + 1
                position += batch.header.totalSize
            case .failure(let reason):
                let next = nextValidBatch(in: bytes, after: position) ?? bytes.count
                let header = RecordBatchHeader(parsing: bytes[position...])
                batches.append(ScannedBatch(
                    position: Int64(position), size: next - position, header: header, batch: nil, problem: reason.text))
                expected = nil  // whatever follows damage starts its own run
                position = next
            }
        }
        return batches
    }

    private static func check(_ bytes: [UInt8], at position: Int) -> Result<RecordBatch, Reason> {
        do {
            return .success(try RecordBatch(bytes: bytes[position...]))
        } catch let LogError.malformedBatch(reason) {
            return .failure(Reason(text: reason))
        } catch {
            return .failure(Reason(text: "\(error)"))
        }
    }

    /// The first position after `position` where a valid batch starts.
    private static func nextValidBatch(in bytes: [UInt8], after position: Int) -> Int? {
        var candidate = position + 1
        while candidate + RecordBatchHeader.size <= bytes.count {
            if bytes[candidate + 16] == UInt8(RecordBatchHeader.currentMagic), case .success = check(bytes, at: candidate) {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    private struct Reason: Error {
        var text: String
    }
}
