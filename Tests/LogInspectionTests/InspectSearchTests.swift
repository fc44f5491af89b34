import Foundation
import LogInspection
import Testing
import TestSupport

/// `dump --header`, `--field` and `--limit`: searching a store, bounded.
@Suite struct InspectSearchTests {
    static func offsets(_ filter: DumpFilter) throws -> [Int64] {
        try Dump.records(InspectTarget(path: InspectFixtures.notesStore), filter: filter).map(\.record.offset)
    }

    @Test("--header event=delete keeps the deletes, in offset order")
    func headerEquals() throws {
        #expect(try Self.offsets(DumpFilter(headers: [DumpMatch("event=delete")])) == [9, 11, 12, 13])
        #expect(try Self.offsets(DumpFilter(zone: "_database", headers: [DumpMatch("event=createZone")])) == [1, 2])
        #expect(try Self.offsets(DumpFilter(headers: [DumpMatch("event=del")])).isEmpty, "equal means the whole value")
        #expect(try Self.offsets(DumpFilter(headers: [DumpMatch("event~=del")])) == [9, 11, 12, 13])
        #expect(try Self.offsets(DumpFilter(headers: [DumpMatch("no-such-header~=")])).isEmpty)
    }

    @Test("--field title~=milk keeps the saves whose title contains milk; = wants the whole title")
    func fieldContainsAndEquals() throws {
        #expect(try Self.offsets(DumpFilter(fields: [DumpMatch("title~=milk")])) == [2, 5, 15])
        #expect(try Self.offsets(DumpFilter(fields: [DumpMatch("title=Buy milk")])) == [2])
        #expect(try Self.offsets(DumpFilter(fields: [DumpMatch("title=milk")])).isEmpty)
        #expect(try Self.offsets(DumpFilter(fields: [DumpMatch("title~=Milk")])).isEmpty, "case counts")
    }

    @Test("a reference field compares as the record name it points to; criteria combine")
    func referencesAndCombinations() throws {
        let inDefault = try Self.offsets(DumpFilter(fields: [DumpMatch("folder=default-folder")]))
        #expect(inDefault.contains(2) && !inDefault.contains(3))
        let both = try Self.offsets(DumpFilter(
            headers: [DumpMatch("recordType=Note")], fields: [DumpMatch("folder=default-folder"), DumpMatch("content~=bread")]))
        #expect(both == [15])
        // Deletes have no fields: a field criterion never keeps them.
        #expect(try Self.offsets(DumpFilter(headers: [DumpMatch("event=delete")], fields: [DumpMatch("title~=")])).isEmpty)
    }

    @Test("--limit stops after that many matches", arguments: [1, 2, 3, 100])
    func limit(count: Int) throws {
        let all = try Self.offsets(DumpFilter(fields: [DumpMatch("title~=milk")]))
        #expect(try Self.offsets(DumpFilter(fields: [DumpMatch("title~=milk")], limit: count)) == Array(all.prefix(count)))
        let batches = try InspectFixtures.dumpLines(InspectFixtures.notesStore, filter: DumpFilter(limit: count), batches: true)
        #expect(batches.count == min(count, 14 + 3))
    }

    @Test("KEY=VALUE and KEY~=VALUE parse; anything else is refused", arguments: [
        ("event=delete", "event", DumpMatch.Comparison.equals, "delete"),
        ("title~=milk", "title", .contains, "milk"),
        ("a=b=c", "a", .equals, "b=c"),
        ("empty=", "empty", .equals, ""),
    ])
    func parsing(text: String, key: String, comparison: DumpMatch.Comparison, value: String) throws {
        let match = try DumpMatch(text)
        #expect(match == DumpMatch(key: key, comparison: comparison, value: value))
        #expect(match.description == text)
    }

    @Test("a criterion without a key or an = is refused", arguments: ["title", "=x", "~=x", ""])
    func refused(text: String) {
        #expect(throws: InspectError.badMatch(text)) { try DumpMatch(text) }
    }

    @Test("the command searches, and exits 64 for a malformed criterion")
    func command() async throws {
        let tool = try #require(ChildProcess.builtExecutable("log-inspect"))
        let found = try await ChildProcess.run(tool, ["dump", InspectFixtures.notesStore, "--field", "title~=milk", "--limit", "2", "--json"])
        #expect(found.status == 0)
        #expect(found.outputText.split(separator: "\n").count == 2)
        let bad = try await ChildProcess.run(tool, ["dump", InspectFixtures.notesStore, "--field", "title"])
        #expect(bad.status == 64)
        #expect(bad.errorText.contains("KEY~=VALUE"))
    }
}
