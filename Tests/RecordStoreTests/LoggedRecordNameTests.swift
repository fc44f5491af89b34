import Foundation
import RecordLog
@testable import RecordStore
import Testing

/// The database reads its zones' records without checking the zone again (it was checked when
/// the store opened), but a record name comes from the log's key. A save whose key breaks the
/// record-name rules (a damaged or forged log: the database never writes one) must be refused
/// when it is read, as `RecordCodec.decode` refuses such an ID.
@Suite struct LoggedRecordNameTests {
    private let zone = ZoneID(zoneName: "Notes")

    /// A store holding `n1`, then the same value bytes appended behind the database's back under
    /// each of `names`.
    private func withForgedSaves(_ names: [String], in kind: StoreKind, _ body: (Database) async throws -> Void) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.createZone(zone)
            let saved = try await database.save(makeRecord("n1", zone: zone, ["text": .string("hello")]))
            let value = try RecordCodec.encode(saved)
            var batch = RecordBatchBuilder()
            for name in names {
                batch.append(key: name, value: value, headers: StoredEvent.headers(.save, recordType: "Note", changeTag: saved.recordChangeTag))
            }
            _ = try await database.zone(zone).partition.append(batch)
            try await body(database)
        }
    }

    @Test("a change under a name the rules refuse throws invalidRecordID, after the changes before it", arguments: StoreKind.allCases, ["_n2", "", String(repeating: "n", count: 256), "nö"])
    func changeUnderInvalidName(kind: StoreKind, _ name: String) async throws {
        try await withForgedSaves([name], in: kind) { database in
            var handedOut: [String] = []
            await #expect(throws: RecordDecodingError(.invalidRecordID, at: 0)) {
                _ = try await database.fetchZoneChanges(
                    in: zone, since: nil, recordChanged: { handedOut.append($0.recordID.recordName) }, recordDeleted: { _ in })
            }
            #expect(handedOut == ["n1"])
            await #expect(throws: RecordDecodingError(.invalidRecordID, at: 0)) {
                _ = try await database.fetchZoneChanges(in: zone, since: nil)
            }
        }
    }

    @Test("the same bytes under a valid name read as the record", arguments: StoreKind.allCases)
    func changeUnderValidName(kind: StoreKind) async throws {
        try await withForgedSaves(["n2"], in: kind) { database in
            var texts: [String: String] = [:]
            _ = try await database.fetchZoneChanges(in: zone, since: nil, recordChanged: { record in
                if case .string(let text)? = record["text"] { texts[record.recordID.recordName] = text }
            }, recordDeleted: { _ in })
            #expect(texts == ["n1": "hello", "n2": "hello"])
            let page = try await database.fetchZoneChanges(in: zone, since: nil)
            #expect(page.changedRecords.map(\.recordID.recordName) == ["n1", "n2"])
        }
    }

    @Test("a view replaying a save under a name the rules refuse fails to register", arguments: StoreKind.allCases)
    func replayUnderInvalidName(kind: StoreKind) async throws {
        try await withForgedSaves(["_n2"], in: kind) { database in
            #expect(throws: RecordDecodingError(.invalidRecordID, at: 0)) { try database.register(NoteTexts.self) }
        }
    }
}
