import Foundation
import LogInspection
import RecordStore
import Testing

@Suite struct ReplayStateTests {
    @Test("state at offset N holds the events before N, never event N")
    func offsetsAreExclusive() async throws {
        try await ItemsStore.with { items, store in
            let expected: [Int64: [String]] = [
                0: [], 1: ["a: one"], 2: ["a: one", "b"], 3: ["a: two", "b"], 4: ["a: two"], 6: ["a: two", "c", "d"],
            ]
            for (offset, names) in expected {
                #expect(try store.state(zone: "Items", at: .offset(offset)).summary == names, "offset \(offset)")
            }
            let third = try store.state(zone: "Items", at: .offset(3)).records
            #expect(third.map(\.offset) == [2, 1], "each record shows the offset of the save that wrote it")
        }
    }

    @Test("state at TIME includes an event stamped exactly TIME, and not one stamped a millisecond later")
    func timesAreInclusive() async throws {
        try await ItemsStore.with { items, store in
            for (offset, stamp) in items.timestamps.enumerated() {
                let at = try store.state(zone: "Items", at: .time(stamp))
                let before = try store.state(zone: "Items", at: .time(stamp - 1))
                let commitEnd = Int64(items.timestamps.lastIndex(of: stamp) ?? offset) + 1
                #expect(at.plan.cuts.map(\.end) == [commitEnd], "offset \(offset) is included at its own time")
                #expect(before.plan.cuts.map(\.end) == [Int64(items.timestamps.firstIndex(of: stamp) ?? offset)])
                #expect(at.records == (try store.state(zone: "Items", at: .offset(commitEnd))).records)
            }
            #expect(try store.state(zone: "Items", at: .time(0)).records.isEmpty)
        }
    }

    @Test("without --zone, an offset applies to every zone and a shorter zone is taken whole")
    func everyZone() async throws {
        let items = try await ItemsStore.make()
        var other = Record(recordType: "Other", recordID: RecordID(recordName: "z"))
        other["title"] = .string("default zone")
        _ = try await items.database.save(other)
        let store = try items.open()
        let state = try store.state(zone: nil, at: .offset(2))
        #expect(state.records.map { "\($0.zone)/\($0.recordName)" } == ["Items/a", "Items/b", "_defaultZone/z"])
        #expect(state.plan.cuts.map(\.end) == [2, 1])
        let now = try store.state(zone: nil, at: .time(Int64.max))
        #expect(now.records.count == 4)
        store.close()
        try items.remove()
    }

    @Test("a point inside a commit is replayed to the offset and warned about")
    func insideCommit() async throws {
        try await ItemsStore.with { items, store in
            let state = try store.state(zone: "Items", at: .offset(5))
            #expect(state.summary == ["a: two", "c"])
            #expect(state.plan.warnings.count == 1)
            #expect(state.plan.warnings.first?.contains("4…5") == true)
            #expect(try store.state(zone: "Items", at: .offset(4)).plan.warnings.isEmpty)
        }
    }

    @Test("the JSON of state names the zone, record, type, fields, offset and modification date")
    func stateJSON() async throws {
        try await ItemsStore.with { items, store in
            let json = try store.state(zone: "Items", at: .offset(2)).json
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            #expect(parsed.map { $0["recordName"] as? String } == ["a", "b"])
            #expect(parsed.first?["zone"] as? String == "Items")
            #expect(parsed.first?["offset"] as? Int == 0)
            #expect(parsed.first?["modificationDate"] is String)
            let fields = try #require(parsed.last?["fields"] as? [String: Any])
            #expect(fields["number"] as? Int == -42)
            #expect((fields["when"] as? [String: String])?["date"] == "2024-05-01T12:00:00.250Z")
            #expect((fields["blob"] as? [String: String])?["bytes"] == "AAH+/w==")
            #expect(fields["tags"] as? [String] == ["x", "y"])
            #expect(json.contains("\"ratio\": 1.0"), "a double always reads back as a double")
        }
    }
}
