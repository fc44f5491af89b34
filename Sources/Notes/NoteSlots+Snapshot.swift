import RecordStore
import StorageKit

/// The Notes view's mapped snapshot (FORMAT.md §12.1): nine sections (``Section``), read in place on open, so a
/// store's first folder listing touches that folder's cells and text pages and no others. The
/// text pages are LZ4 frames (about 0.4 of the texts' size), each decompressed when first read.
///
/// The writer renumbers the slots folder by folder, in listing order, and lays the texts out in
/// the same order, so a folder's cells and texts are contiguous in the file.
extension NoteSlots {
    /// Writes the slots as the snapshot's nine sections.
    func writeSnapshot(to writer: inout ViewSnapshotWriter) throws {
        let numbering = SnapshotNumbering(self)
        var packer = TextPacker()
        var movedCells: [NoteCell] = []
        movedCells.reserveCapacity(numbering.oldSlots.count)
        for old in numbering.oldSlots {
            var cell = cells[Int(old)]
            // The bytes a read gives, not the reference's count: a reference read from a damaged
            // snapshot that points outside its page reads as empty, and is written so.
            cell.id = packer.place(UInt32(texts.withBytes(cell.id) { $0.count }))
            cell.content = packer.place(UInt32(texts.withBytes(cell.content) { $0.count }))
            movedCells.append(cell)
        }
        try writer.startSection(Section.meta)
        try writer.write(meta: Meta(noteCount: numbering.oldSlots.count, idSeed: ids.seed, textBytes: packer.totalBytes))
        try writer.startSection(Section.cells)
        // Room after the cells, so that the next open's first new notes do not move them all.
        try movedCells.withUnsafeBufferPointer { try writer.write($0, spare: ViewSnapshotWriter.spare(after: $0.count)) }
        movedCells = []
        try writer.startSection(Section.idTable)
        let buckets = renumberedBuckets(numbering) ?? rebuiltBuckets(numbering)
        try buckets.withUnsafeBufferPointer { try writer.write($0) }
        try writer.startSection(Section.textFrames)
        let frameSizes = try writeCompressedPages(numbering.oldSlots, pageLengths: packer.pageLengths, to: &writer)
        try writer.startSection(Section.pageSizes)
        try zip(packer.pageLengths, frameSizes).flatMap { [$0, $1] }.withUnsafeBufferPointer { try writer.write($0) }
        try writer.writeStrings(folderIDsByIndex, lengths: Section.folderIDLengths, bytes: Section.folderIDs)
        try writer.startSection(Section.orderLengths)
        try numbering.orders.map { UInt32($0.count) }.withUnsafeBufferPointer { try writer.write($0) }
        try writer.startSection(Section.orderSlots)
        for order in numbering.orders {
            try order.withUnsafeBufferPointer { try writer.write($0) }
        }
    }

    /// The id table's buckets with their slots renumbered; nil when a bucket names a slot that
    /// holds no note (only slots read from a damaged snapshot can).
    private func renumberedBuckets(_ numbering: SnapshotNumbering) -> [UInt64]? {
        var buckets: [UInt64] = []
        buckets.reserveCapacity(ids.buckets.count)
        for bucket in ids.buckets {
            guard bucket != 0 else {
                buckets.append(0)
                continue
            }
            let old = Int(bucket & 0xFFFF_FFFF) - 1
            guard numbering.newSlots.indices.contains(old), numbering.newSlots[old] >= 0 else { return nil }
            buckets.append(bucket & 0xFFFF_FFFF_0000_0000 | UInt64(UInt32(bitPattern: numbering.newSlots[old] + 1)))
        }
        return buckets
    }

    /// An id table filed anew for the renumbered notes, for slots whose table does not fit them.
    private func rebuiltBuckets(_ numbering: SnapshotNumbering) -> [UInt64] {
        var table = SlotTable(seed: ids.seed)
        table.reserveCapacity(numbering.oldSlots.count)
        for (new, old) in numbering.oldSlots.enumerated() {
            let hash = texts.withBytes(cells[Int(old)].id) { ids.hash(UnsafeRawBufferPointer($0)) }
            _ = table.findOrInsert(hash: hash, fresh: Int32(new)) { _ in false }
        }
        return Array(table.buckets)
    }

    /// Writes the texts of `slots` (each note's id, then its content) as pages of `pageLengths`
    /// bytes, each page an LZ4 frame; returns the frames' sizes.
    private func writeCompressedPages(_ slots: [Int32], pageLengths: [UInt32], to writer: inout ViewSnapshotWriter) throws -> [UInt32] {
        var frameSizes: [UInt32] = []
        var page: [UInt8] = []
        var frame: [UInt8] = []
        func flushIfFull() throws {
            while frameSizes.count < pageLengths.count, page.count == Int(pageLengths[frameSizes.count]) {
                frame.removeAll(keepingCapacity: true)
                try page.withUnsafeBytes { try LZ4Frame.compress($0, appendingTo: &frame) }
                try frame.withUnsafeBytes { try writer.write($0) }
                frameSizes.append(UInt32(frame.count))
                page.removeAll(keepingCapacity: true)
            }
        }
        for old in slots {
            let cell = cells[Int(old)]
            for ref in [cell.id, cell.content] where ref.count > 0 {
                texts.withBytes(ref) { page.append(contentsOf: $0) }
                try flushIfFull()
            }
        }
        return frameSizes
    }

    /// The slots a snapshot's sections hold, read in place; nil unless the sections are the nine
    /// of this version (``Meta/currentVersion``) and their counts and lengths agree.
    init?(snapshot: MappedViewSnapshot) {
        guard snapshot.sectionCount == Section.count, let sections = snapshot.sections(Section.self),
            let meta = sections.meta(.meta, as: Meta.self)
        else { return nil }
        let count = meta.noteCount
        guard let cells = sections.array(.cells, count: count, of: NoteCell.self),
            let buckets = sections.array(.idTable, of: UInt64.self), let ids = SlotTable(buckets: buckets, count: count, seed: meta.idSeed),
            let pages = Self.pages(sections, textBytes: meta.textBytes, twoThreadsFrom: snapshot.tuning.twoThreadDecompressionPages),
            let folderIDs = sections.strings(lengths: .folderIDLengths, bytes: .folderIDs),
            let orders = Self.orders(sections, folders: folderIDs.count, notes: count)
        else { return nil }
        self.init(cells: cells, texts: TextArena(compressed: pages, liveBytes: meta.textBytes), ids: ids, folderIDs: folderIDs, orders: orders)
    }

    /// The text pages of ``Section/textFrames`` (their LZ4 frames, back to back) and
    /// ``Section/pageSizes`` (per page, the size of its text and of its frame, uint32 each); a
    /// listing that reads `twoThreadsFrom` of them or more decompresses them on two threads.
    private static func pages(_ sections: SnapshotSections<Section>, textBytes: Int, twoThreadsFrom: Int) -> CompressedPages? {
        let frames = sections.bytes(.textFrames)
        guard let sizes = sections.array(.pageSizes, of: UInt32.self), sizes.count % 2 == 0 else { return nil }
        var start = 0, total = 0
        var pages: [(frame: MappedArray<UInt8>, size: Int)] = []
        pages.reserveCapacity(sizes.count / 2)
        for index in stride(from: 0, to: sizes.count, by: 2) {
            let end = start + Int(sizes[index + 1])
            guard end <= frames.count, sizes[index] > 0,
                let frame = MappedArray<UInt8>(mapping: sections.mapping, bytes: UnsafeRawBufferPointer(rebasing: frames[start..<end]))
            else { return nil }
            pages.append((frame, Int(sizes[index])))
            total += Int(sizes[index])
            start = end
        }
        guard start == frames.count, total == textBytes else { return nil }
        return CompressedPages(frames: pages, twoThreadsFrom: twoThreadsFrom)
    }

    /// The folders' orders of ``Section/orderLengths`` (their lengths) and ``Section/orderSlots``
    /// (their slots, back to back).
    private static func orders(_ sections: SnapshotSections<Section>, folders: Int, notes: Int) -> [FolderOrder]? {
        let slots = sections.bytes(.orderSlots)
        guard let lengths = sections.array(.orderLengths, of: UInt32.self), lengths.count == folders,
            lengths.reduce(0, { $0 + Int($1) }) == notes, slots.count == notes * MemoryLayout<Int32>.stride
        else { return nil }
        var start = 0
        var orders: [FolderOrder] = []
        for length in lengths {
            let end = start + Int(length) * MemoryLayout<Int32>.stride
            guard let order = MappedArray<Int32>(mapping: sections.mapping, bytes: UnsafeRawBufferPointer(rebasing: slots[start..<end])) else { return nil }
            orders.append(FolderOrder(slots: order))
            start = end
        }
        return orders
    }
}

/// The slots renumbered for a snapshot: folder by folder in listing order, then any live note no
/// folder lists (none, while the slots are consistent). A listed slot that holds no note (only
/// an order read from a damaged snapshot has one) is left out.
private struct SnapshotNumbering {
    /// New slot → old slot.
    var oldSlots: [Int32] = []
    /// Old slot → new slot (-1 for a free slot).
    var newSlots: [Int32]
    /// Each folder's order, in new slots.
    var orders: [[Int32]] = []

    init(_ slots: NoteSlots) {
        newSlots = [Int32](repeating: -1, count: slots.cells.count)
        oldSlots.reserveCapacity(slots.count)
        for order in slots.orders {
            var renumbered: [Int32] = []
            renumbered.reserveCapacity(order.slots.count)
            for old in order.slots where newSlots.indices.contains(Int(old)) && !slots.cells[Int(old)].isFree && newSlots[Int(old)] < 0 {
                newSlots[Int(old)] = Int32(oldSlots.count)
                renumbered.append(Int32(oldSlots.count))
                oldSlots.append(old)
            }
            orders.append(renumbered)
        }
        for old in slots.cells.indices where !slots.cells[old].isFree && newSlots[old] < 0 {
            newSlots[old] = Int32(oldSlots.count)
            oldSlots.append(Int32(old))
        }
    }
}

/// Places texts in pages as ``TextArena/append(_:)`` does, for texts written back to back.
private struct TextPacker {
    var pageLengths: [UInt32] = []
    var totalBytes = 0

    mutating func place(_ count: UInt32) -> TextRef {
        guard count > 0 else { return .empty }
        if let last = pageLengths.last, Int(last) + Int(count) <= TextArena.pageSize {
            pageLengths[pageLengths.count - 1] += count
        } else {
            pageLengths.append(count)
        }
        totalBytes += Int(count)
        return TextRef(page: UInt32(pageLengths.count - 1), offset: pageLengths[pageLengths.count - 1] - count, count: count)
    }
}
