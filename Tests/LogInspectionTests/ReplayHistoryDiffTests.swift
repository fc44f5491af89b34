import Foundation
import LogInspection
import RecordStore
import Testing

@Suite struct ReplayHistoryDiffTests {
    @Test("history lists every save and delete of one record, oldest first")
    func history() async throws {
        try await ItemsStore.with { items, store in
            let a = try store.history(zone: "Items", recordName: "a")
            #expect(a.map(\.offset) == [0, 2])
            #expect(a.map(\.kind) == [.save, .save])
            #expect(a.map(\.changeTag) == ["2-0", "2-2"], "incarnation 2: Items was created at system offset 2")
            #expect(a.map(\.timestamp) == [items.timestamps[0], items.timestamps[2]])
            #expect(a.last?.record?["flag"] == .bool(true))
            let b = try store.history(zone: "Items", recordName: "b")
            #expect(b.map(\.kind) == [.save, .delete])
            #expect(b.last?.recordType == "Item")
            #expect(b.last?.record == nil)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(HistoryOutput.json(b).utf8)) as? [[String: Any]])
            #expect(json.map { $0["event"] as? String } == ["save", "delete"])
            #expect(json.last?["fields"] is NSNull)
            #expect(json.first?["timestamp"] as? Int64 == items.timestamps[1])
        }
    }

    @Test("diff reports added, deleted, and changed records field by field")
    func diff() async throws {
        try await ItemsStore.with { items, store in
            let change = try store.diff(zone: "Items", from: 1, to: 4)
            #expect(change.added.isEmpty)
            #expect(change.deleted.isEmpty, "b was created and deleted between the points")
            #expect(change.changed.map(\.after.recordName) == ["a"])
            #expect(
                change.changed.first?.fields == [
                    FieldChange(key: "flag", before: nil, after: .bool(true)),
                    FieldChange(key: "old", before: .string("x"), after: nil),
                    FieldChange(key: "title", before: .string("one"), after: .string("two")),
                ])
            #expect(change.changed.first.map { [$0.before.offset, $0.after.offset] } == [0, 2])

            let later = try store.diff(zone: "Items", from: 3, to: 6)
            #expect(later.added.map(\.recordName) == ["c", "d"])
            #expect(later.deleted.map(\.recordName) == ["b"])
            #expect(later.deleted.first?.record["number"] == .int64(-42), "a deleted record is shown as it was")
            #expect(later.changed.isEmpty)

            #expect(try store.diff(zone: "Items", from: 2, to: 2).text.hasPrefix("no differences"))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(change.json.utf8)) as? [String: Any])
            let fields = try #require(((json["changed"] as? [[String: Any]])?.first?["fields"]) as? [[String: Any]])
            #expect(fields.map { $0["key"] as? String } == ["flag", "old", "title"])
            #expect(fields[0]["before"] is NSNull)
            #expect(fields[2]["after"] as? String == "two")
        }
    }
}
