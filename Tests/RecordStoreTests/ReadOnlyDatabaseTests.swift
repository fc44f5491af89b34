import Foundation
import Testing
@testable import RecordStore
import TestSupport

/// A read-only database beside the store's writer (here in the same process; NotesCLITests runs
/// the writers as processes): it serves the writer's durable commits, follows later ones into
/// its records, views and zone list, and changes nothing.
@Suite struct ReadOnlyDatabaseTests {
    private func note(_ name: String, _ text: String, in zone: ZoneID = .default) -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
        record["text"] = .string(text)
        return record
    }

    @Test("a reader follows the writer's saves, deletes and zones; its live view equals one rebuilt; it writes nothing")
    func readerFollowsWriter() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("readonly-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try await Database(directory: path)
        _ = try await writer.save(note("a", "one"))
        let writerView = try writer.register(NoteTexts.self)
        try writer.checkpoint()
        _ = try await writer.save(note("b", "two"))

        let reader = try await Database(directory: path, readOnly: true)
        #expect(reader.isReadOnly)
        #expect(reader.openReport.zonesFromSnapshot > 0, "starts from the writer's checkpoint")
        #expect(try await reader.record(for: RecordID(recordName: "b"))["text"] == .string("two"))
        let readerView = try reader.register(NoteTexts.self)

        let work = ZoneID(zoneName: "Work")
        try await writer.createZone(work)
        _ = try await writer.save(note("w", "work", in: work))
        try await writer.delete(RecordID(recordName: "a"))
        var updated = try await writer.record(for: RecordID(recordName: "b"))
        updated["text"] = .string("two, edited")
        _ = try await writer.save(updated)

        // A read catches up first.
        #expect(try await reader.allZones().contains(work))
        #expect(try await reader.record(for: RecordID(recordName: "w", zoneID: work))["text"] == .string("work"))
        await #expect(throws: RecordStoreError.self) { _ = try await reader.record(for: RecordID(recordName: "a")) }
        #expect(await readerView.current.texts == writerView.current.texts)
        #expect(await readerView.current.texts == (try reader.rebuild(NoteTexts.self)).texts)

        try await writer.deleteZone(work)
        try await reader.refresh()
        #expect(try await reader.allZones() == [.default])
        #expect(await readerView.current.texts == writerView.current.texts)

        await #expect(throws: (any Error).self) { _ = try await reader.save(note("x", "refused")) }
        await #expect(throws: (any Error).self) { try await reader.createZone(ZoneID(zoneName: "Nope")) }
        try reader.checkpoint()  // a reader writes no checkpoint: nothing happens
        try reader.close()
        try writer.close()
        #expect(try await Database(directory: path, readOnly: true).record(for: RecordID(recordName: "b"))["text"] == .string("two, edited"))
    }

    @Test("a read-only open of a directory that is no store fails and creates nothing")
    func readOnlyOfMissingStore() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("readonly-missing-\(UUID().uuidString)").path
        await #expect(throws: (any Error).self) { _ = try await Database(directory: path, readOnly: true) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
