import LogInspection
import RecordStore
import Testing

/// dump's filters and point rules (offsets: `to` exclusive; times: both ends inclusive), and
/// values that are not store records.
@Suite struct InspectDumpTests {
    let store: InspectTarget

    init() throws {
        store = try InspectTarget(path: InspectFixtures.notesStore)
    }

    private func records(_ filter: DumpFilter) throws -> [InspectedRecord] {
        try Dump.records(store, filter: filter)
    }

    @Test func fromIsInclusiveAndToIsExclusive() throws {
        let offsets = try records(DumpFilter(zone: "Notes", from: 2, to: 5)).map(\.record.offset)
        #expect(offsets == [2, 3, 4])
        #expect(try records(DumpFilter(zone: "Notes", from: 3, to: 3)).isEmpty)
    }

    @Test func sinceAndUntilIncludeTheirEnds() throws {
        let all = try records(DumpFilter(zone: "Notes"))
        let middle = all[all.count / 2].record.timestamp
        let selected = try records(DumpFilter(zone: "Notes", since: middle, until: middle))
        #expect(!selected.isEmpty)
        #expect(selected.allSatisfy { $0.record.timestamp == middle })
        #expect(selected.count == all.filter { $0.record.timestamp == middle }.count)
        let before = try records(DumpFilter(zone: "Notes", until: middle - 1))
        let after = try records(DumpFilter(zone: "Notes", since: middle + 1))
        #expect(before.count + selected.count + after.count == all.count)
    }

    @Test("timestamps print as ISO 8601 in UTC, always with milliseconds, also before 1970")
    func timestampsPrintAsISO8601() throws {
        #expect(Timestamp.iso8601(milliseconds: 1_700_000_000_250) == "2023-11-14T22:13:20.250Z")
        #expect(Timestamp.iso8601(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
    }

    @Test func keyAndTypeFilters() throws {
        let notes = try records(DumpFilter(zone: "Notes", recordType: "Note"))
        #expect(!notes.isEmpty)
        #expect(notes.allSatisfy { $0.event.recordType == "Note" })
        let key = try #require(notes.first?.record.keyString)
        let history = try records(DumpFilter(key: key))
        #expect(!history.isEmpty)
        #expect(history.allSatisfy { $0.record.keyString == key })
    }

    @Test func savesHaveDecodedFieldsAndDeletesHaveNone() throws {
        let all = try records(DumpFilter(zone: "Notes"))
        let save = try #require(all.first { $0.event.kind == "save" && $0.event.recordType == "Note" })
        let json = save.json().compact()
        #expect(json.contains("\"fields\":{\"content\":"))
        #expect(json.contains("\"folder\":{\"reference\":"))
        let delete = try #require(all.first { $0.event.kind == "delete" })
        #expect(delete.json().compact().contains("\"fields\":null"))
    }

    @Test func zonesAreCheckedByName() {
        #expect(throws: InspectError.self) { try records(DumpFilter(zone: "NoSuchZone")) }
    }

    @Test func foreignValuesAreShownAsBase64() throws {
        let lines = try InspectFixtures.dumpLines(InspectFixtures.kafkaSegment)
        #expect(lines.count == 8)
        #expect(lines[0].contains("\"value\":\"aGVsbG8sIGthZmthLXB5dGhvbiBo"))
        #expect(lines[0].contains("\"fields\":null"))
        #expect(lines[2].contains("\"event\":\"delete\""))  // the tombstone
        #expect(lines[0].contains("\"headers\":[{\"key\":\"content-type\""))
        let text = try InspectFixtures.dumpLines(InspectFixtures.kafkaSegment, json: false)
        #expect(text[1].contains("key=null value=base64:"))
    }

    @Test func foreignBatchesMatchWhatKafkaPythonWrote() throws {
        let lines = try InspectFixtures.dumpLines(InspectFixtures.kafkaSegment, batches: true)
        #expect(lines.count == 3)
        #expect(lines[0].contains("\"position\":0,\"size\":307,\"baseOffset\":0,\"lastOffset\":2,\"count\":3,\"codec\":\"lz4\",\"crc\":4084129991"))
        #expect(lines[2].contains("\"position\":434,\"size\":34698"))
    }

    @Test func fieldValuesMapToJSON() {
        #expect(FieldJSON.value(.double(1)).compact() == "1.0")
        #expect(FieldJSON.value(.double(.nan)).compact() == "{\"double\":\"nan\"}")
        #expect(FieldJSON.value(.int64(-3)).compact() == "-3")
        #expect(FieldJSON.value(.bytes([0, 255])).compact() == "{\"bytes\":\"AP8=\"}")
        #expect(FieldJSON.value(.list([.bool(true), .string("a\n")])).compact() == "[true,\"a\\n\"]")
    }
}
