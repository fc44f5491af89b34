import Foundation
@testable import RecordStore
import Testing
import StorageKit

/// A replay chunk folds its events in order, and tells `upcoming` of each save ahead of folding
/// it (so that a view may prefetch what the save will touch).
@Suite struct ReplayChunkTests {
    @Test("every save is announced once, in order, before it is folded, whatever the chunk's length", arguments: [0, 1, 5, 8, 9, 40])
    func upcomingBeforeFold(events count: Int) throws {
        let chunk = ReplayChunk()
        var expected: [String] = []
        for index in 0..<count {
            if index % 5 == 4 {
                chunk.appendOther(.deleted(RecordID(recordName: "d\(index)"), recordType: "Note"))
                expected.append("fold d\(index)")
                continue
            }
            var record = makeRecord("s\(index)", ["text": .string("value \(index)")])
            record.creationDate = Date(timeIntervalSince1970: 1_700_000_000)
            record.modificationDate = record.creationDate
            record.recordChangeTag = "1-\(index)"
            try RecordCodec.encode(record).withUnsafeBytes { chunk.appendSave(record.recordID, value: $0) }
            expected.append("fold s\(index)")
        }
        var trail: [String] = []
        var announced: [String] = []
        try chunk.fold(
            saved: { record in
                #expect(announced.contains(record.recordID.recordName), "\(record.recordID.recordName) announced before its fold")
                trail.append("fold \(record.recordID.recordName)")
            },
            other: { event in
                if case .deleted(let id, _) = event { trail.append("fold \(id.recordName)") }
            },
            upcoming: { id in announced.append(id.recordName) })
        #expect(trail == expected)
        #expect(announced == expected.filter { $0.hasPrefix("fold s") }.map { String($0.dropFirst(5)) })
    }

    @Test("a prefetch changes nothing a table answers, empty or not")
    func prefetchIsAHint() {
        var table = SlotTable()
        table.prefetch(hash: 7)
        let names = (0..<50).map { "p\($0)" }
        for (slot, name) in names.enumerated() {
            table.prefetch(hash: SlotTable.hash(name))
            _ = table.findOrInsert(hash: SlotTable.hash(name), fresh: Int32(slot)) { names[Int($0)] == name }
        }
        for hash in [0, 1, UInt32.max, SlotTable.hash("absent")] { table.prefetch(hash: hash) }
        #expect(table.count == names.count)
        for (slot, name) in names.enumerated() {
            #expect(table.find(hash: SlotTable.hash(name)) { names[Int($0)] == name } == Int32(slot))
        }
    }
}
