import Foundation
import RecordLog
@testable import RecordStore
import Testing

/// `StoredEvent` reads back what the store wrote: the one decoder log-inspect and log-replay use.
@Suite struct StoredEventDecodingTests {
    @Test("a save reads back as its kind, name, headers and the record the store saved", arguments: StoreKind.allCases)
    func saveReadsBack(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let saved = try await database.save(makeRecord("n1", ["title": .string("Hi")]))
            let logged = try #require(try database.log.partition(named: ZoneID.default.zoneName).records(from: 0, to: nil, limit: .max).last)
            let event = StoredEvent(logged)
            #expect(event.kind == .save)
            #expect(event.eventName == "save")
            #expect(event.name == "n1")
            #expect(event.recordType == "Note")
            #expect(event.changeTag == saved.recordChangeTag)
            #expect(try event.savedRecord(zone: ZoneID.default.zoneName) == saved)
        }
    }

    @Test("a delete reads back with its record type and no record", arguments: StoreKind.allCases)
    func deleteReadsBack(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.save(makeRecord("n1", type: "Folder"))
            try await database.delete(RecordID(recordName: "n1"))
            let logged = try #require(try database.log.partition(named: ZoneID.default.zoneName).records(from: 0, to: nil, limit: .max).last)
            let event = StoredEvent(logged)
            #expect(event.kind == .delete)
            #expect(event.name == "n1")
            #expect(event.recordType == "Folder")
            #expect(event.changeTag == nil)
            #expect(try event.savedRecord(zone: ZoneID.default.zoneName) == nil)
        }
    }

    @Test("zone events are read from the system partition by the same definition", arguments: StoreKind.allCases)
    func zoneEventsInTheSystemPartition(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.createZone(ZoneID(zoneName: "Work"))
            try await database.deleteZone(ZoneID(zoneName: "Work"))
            let system = try database.log.partition(named: StoredEvent.systemPartition)
            let events = try system.records(from: 0, to: nil, limit: .max).map(StoredEvent.init)
            #expect(events.first?.kind == .storeIdentity)
            #expect(events.suffix(2).map(\.kind) == [.createZone, .deleteZone])
            #expect(events.suffix(2).map(\.name) == ["Work", "Work"])
            #expect(events.allSatisfy { (try? $0.savedRecord(zone: StoredEvent.systemPartition)) == .some(nil) })
        }
    }

    @Test("a record the store did not write has no kind, and an unknown kind keeps its name")
    func foreignRecords() throws {
        let bare = StoredEvent(LogRecord(offset: 0, timestamp: 0, key: Array("k".utf8)[...], value: [1, 2][...], headers: []))
        #expect(bare.kind == nil && bare.eventName == nil && bare.recordType == nil)
        #expect(try bare.savedRecord(zone: "Notes") == nil)
        let unknown = StoredEvent(LogRecord(
            offset: 0, timestamp: 0, key: nil, value: nil, headers: [LogHeader(key: StoredEvent.eventHeader, string: "compact")]))
        #expect(unknown.kind == nil)
        #expect(unknown.eventName == "compact")
    }

    @Test("a save whose value is not a record encoding throws the decoding error")
    func undecodableSave() {
        let broken = StoredEvent(LogRecord(
            offset: 7, timestamp: 0, key: Array("n1".utf8)[...], value: [0xEE, 1, 2][...], headers: StoredEvent.headers(.save, recordType: "Note")))
        #expect(throws: RecordDecodingError.self) { try broken.savedRecord(zone: "Notes") }
    }

    @Test("only the store's own header names are store headers")
    func storeHeaders() {
        for name in [StoredEvent.eventHeader, StoredEvent.recordTypeHeader, StoredEvent.changeTagHeader] {
            #expect(StoredEvent.isStoreHeader(name))
        }
        #expect(!StoredEvent.isStoreHeader("traceparent"))
    }
}
