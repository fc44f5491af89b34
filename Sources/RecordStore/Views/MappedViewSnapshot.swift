import Dispatch
import Foundation
import RecordLog
import StorageKit

/// A ``MappedSnapshotView``'s snapshot, opened: the file mapped privately, its footer read and
/// the CRC-32C of every block of every section checked, for the view to read its sections in place
/// by name (``sections(_:from:)``).
package struct MappedViewSnapshot: Sendable {
    /// The file's last 8 bytes.
    static let magic = Array("RLVIEW01".utf8)
    /// The mapped file; ``MappedArray``s made from it keep it mapped.
    package let mapping: MappedFile
    /// Each section's bytes, in the order the view wrote them.
    private let ranges: [Range<Int>]
    let storeID: [UInt8]
    let zones: [String: ZonePosition]
    /// The tuning of the database that opened it, for the view's reads of its sections.
    package let tuning: CommitTuning

    /// How many sections the view wrote.
    package var sectionCount: Int { ranges.count }

    /// The part of the file whose sections start at section `first`, addressed by `Section`'s
    /// names; nil when the file ends before the part does.
    package func sections<Section: SnapshotSection>(_ type: Section.Type, from first: Int = 0) -> SnapshotSections<Section>? {
        guard first >= 0, first <= ranges.count - Section.count else { return nil }
        return SnapshotSections(mapping: mapping, ranges: ranges[first..<(first + Section.count)])
    }

    /// Checks every block of `sections` against its CRC-32C, read in place through a pass over
    /// the file that lets each block go once checked (``FilePass``: no copy, and the pages do not
    /// stay the process's memory), on every core when the sections hold more than a block's
    /// worth of bytes; nil when all match, else what failed.
    private static func checkBlocks(of sections: [(range: Range<Int>, crcs: [UInt32])], in mapping: MappedFile) -> String? {
        let blockSize = ViewSnapshotWriter.blockSize
        let blocks = sections.enumerated().flatMap { index, section in
            section.crcs.enumerated().map { block, crc in
                let start = section.range.lowerBound + block * blockSize
                return (section: index, range: start..<min(start + blockSize, section.range.upperBound), crc: crc)
            }
        }
        guard !blocks.isEmpty else { return nil }
        let pass: FilePass
        do {
            pass = try mapping.pass()
        } catch {
            return "it cannot be read: \(error)"
        }
        // A small snapshot (most sections are far below a block) is checked on the calling
        // thread: a second thread's wake-up costs more than its CRCs.
        let bytes = blocks.reduce(0) { $0 + $1.range.count }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, blocks.count, bytes / blockSize))
        let failure = LockedValue<String?>(nil)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for block in blocks[(worker * blocks.count / workers)..<((worker + 1) * blocks.count / workers)] {
                // The footer's check keeps every section inside the file.
                let crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: pass.bytes[block.range]))
                pass.letGo(block.range)
                if crc != block.crc {
                    failure.withLock { $0 = $0 ?? "section \(block.section) fails its CRC at byte \(block.range.lowerBound)" }
                    return
                }
            }
        }
        return failure.withLock { $0 }
    }

    /// Opens the snapshot at `path`, for a database of `tuning`; nil when there is none, or it is
    /// damaged or not one (the reason is `reject`ed).
    static func open(path: String, tuning: CommitTuning = .current, reject: (String) -> Void) -> MappedViewSnapshot? {
        guard let mapping = try? MappedFile(path: path) else { return nil }
        let bytes = UnsafeRawBufferPointer(mapping.bytes)
        let trailer = 4 + 4 + magic.count
        guard bytes.count >= trailer, Array(bytes.suffix(magic.count)) == magic else {
            reject("it does not end with the view snapshot magic")
            return nil
        }
        var tail = TokenBytes(bytes: Array(bytes.suffix(trailer)), position: 0)
        guard let footerLength = tail.uint32().map(Int.init), let footerCRC = tail.uint32(), footerLength <= bytes.count - trailer else {
            reject("its footer length is out of bounds")
            return nil
        }
        let footerBytes = Array(bytes[(bytes.count - trailer - footerLength)..<(bytes.count - trailer)])
        guard CRC32C.checksum(footerBytes) == footerCRC else {
            reject("its footer fails its CRC")
            return nil
        }
        guard let footer = Footer(footerBytes, fileSize: bytes.count - trailer - footerLength) else {
            reject("its footer is malformed")
            return nil
        }
        if let section = footer.firstOverlappingSection {
            reject("its section \(section) starts before section \(section - 1) ends")
            return nil
        }
        if let failure = checkBlocks(of: footer.sections, in: mapping) {
            reject(failure)
            return nil
        }
        return MappedViewSnapshot(
            mapping: mapping, ranges: footer.sections.map(\.range), storeID: footer.storeID, zones: footer.zones, tuning: tuning)
    }

    /// The footer's fields, read with bounds checks.
    private struct Footer {
        var storeID: [UInt8]
        var zones: [String: ZonePosition] = [:]
        var sections: [(range: Range<Int>, crcs: [UInt32])] = []

        init?(_ bytes: [UInt8], fileSize: Int) {
            guard bytes.count >= 16 else { return nil }
            storeID = Array(bytes[0..<16])
            var reader = TokenBytes(bytes: bytes, position: 16)
            guard let zoneCount = reader.uint32(), zoneCount <= bytes.count else { return nil }
            for _ in 0..<zoneCount {
                guard let zone = reader.zonePosition(), zones[zone.zoneName] == nil else { return nil }
                zones[zone.zoneName] = zone.position
            }
            guard let sectionCount = reader.uint32(), sectionCount <= bytes.count else { return nil }
            for _ in 0..<sectionCount {
                guard let offset = reader.integer(UInt64.self), let length = reader.integer(UInt64.self),
                    offset % UInt64(ViewSnapshotWriter.alignment) == 0, offset <= UInt64(fileSize), length <= UInt64(fileSize) - offset
                else { return nil }
                let blocks = (Int(length) + ViewSnapshotWriter.blockSize - 1) / ViewSnapshotWriter.blockSize
                var crcs: [UInt32] = []
                for _ in 0..<blocks {
                    guard let crc = reader.uint32() else { return nil }
                    crcs.append(crc)
                }
                sections.append((Int(offset)..<Int(offset + length), crcs))
            }
            guard reader.position == bytes.count else { return nil }
        }

        /// The first section that starts before the one listed before it ends, if any. The writer
        /// lays the sections out in order, each after the last (FORMAT.md §12); sections that
        /// share bytes would let a view's write into one change another in the private mapping —
        /// the Notes cells' room appended into (§12.1) then overwrote the id table lying in it,
        /// and a note saved after the open was not found.
        var firstOverlappingSection: Int? {
            sections.indices.dropFirst().first { sections[$0].range.lowerBound < sections[$0 - 1].range.upperBound }
        }
    }
}
