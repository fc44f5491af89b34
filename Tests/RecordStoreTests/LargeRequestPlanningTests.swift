import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// A request of `CommitTuning.standard.twoThreadPlanningItems` saves or more is planned on two threads, half each:
/// every item must get the outcome it gets alone, and the saves must be written in request order.
@Suite(.everyTuning) struct LargeRequestPlanningTests {
    /// What item `index` of the request is, by `index % 5`.
    private enum Kind: Int, CaseIterable {
        case new, edit, staleEdit, invalidKey, danglingReference
    }

    /// The store with `u0…` and `v0…` saved, and a request of `count` saves of every kind, in turn.
    private func request(_ database: Database, count: Int) async throws -> [(Kind, Record)] {
        let perKind = (count + 4) / 5
        for prefix in ["u", "v"] {
            let existing = (0..<perKind).map { makeRecord("\(prefix)\($0)", ["text": .string("old")]) }
            _ = try await database.modifyRecords(saving: existing, deleting: [])
        }
        var items: [(Kind, Record)] = []
        for index in 0..<count {
            let kind = Kind(rawValue: index % 5) ?? .new
            let serial = index / 5
            var record: Record
            switch kind {
            case .new:
                record = makeRecord("n\(serial)", ["text": .string("new \(serial)")])
            case .edit:
                record = try await database.record(for: RecordID(recordName: "u\(serial)"))
                record["text"] = .string("edited \(serial)")
            case .staleEdit:
                record = try await database.record(for: RecordID(recordName: "v\(serial)"))
                record = Record(recordType: record.recordType, recordID: record.recordID, sortedFields: [], recordChangeTag: "1-999999")
                record["text"] = .string("stale \(serial)")
            case .invalidKey:
                record = makeRecord("i\(serial)", ["_text": .string("bad")])
            case .danglingReference:
                record = makeRecord("d\(serial)", ["text": .string("orphan")])
                record["parent"] = .reference(Reference(recordID: RecordID(recordName: "ghost"), action: .deleteSelf))
            }
            items.append((kind, record))
        }
        return items
    }

    @Test("non-atomic: each item of a large request gets its own outcome; the saves are logged in request order", arguments: StoreKind.allCases)
    func nonAtomicOutcomes(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let count = database.maximumItemsPerRequest
            #expect(count >= CommitTuning.standard.twoThreadPlanningItems)
            let items = try await request(database, count: count)
            let token = try await database.fetchZoneChanges(in: .default, since: nil).changeToken
            let result = try await database.modifyRecords(saving: items.map(\.1), deleting: [], atomically: false)
            #expect(result.saveResults.count == count)
            var saved: [String] = []
            for (kind, record) in items {
                let outcome = result.saveResults[record.recordID]
                switch kind {
                case .new, .edit:
                    let stored = try #require(try outcome?.get())
                    #expect(stored["text"] == record["text"])
                    saved.append(record.recordID.recordName)
                case .staleEdit:
                    #expect(failure(outcome)?.code == .serverRecordChanged, "\(record.recordID)")
                case .invalidKey:
                    #expect(failure(outcome)?.code == .invalidArguments, "\(record.recordID)")
                case .danglingReference:
                    #expect(failure(outcome)?.code == .referenceViolation, "\(record.recordID)")
                }
            }
            let changes = try await database.fetchZoneChanges(in: .default, since: token)
            #expect(changes.changedRecords.map(\.recordID.recordName) == saved, "logged in request order")
        }
    }

    @Test("atomic: one failing item of a large request writes nothing and fails the rest as batchRequestFailed", arguments: StoreKind.allCases)
    func atomicWritesNothing(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let items = try await request(database, count: database.maximumItemsPerRequest)
            let endBefore = try database.endOffset(.default)
            let error = await #expect(throws: RecordStoreError.self) {
                _ = try await database.modifyRecords(saving: items.map(\.1), deleting: [])
            }
            let errors = try #require(error?.partialErrors)
            #expect(errors.count == items.count)
            for (kind, record) in items {
                let expected: RecordStoreError.Code = switch kind {
                case .new, .edit: .batchRequestFailed
                case .staleEdit: .serverRecordChanged
                case .invalidKey: .invalidArguments
                case .danglingReference: .referenceViolation
                }
                #expect(errors[record.recordID]?.code == expected, "\(record.recordID)")
            }
            #expect(try database.endOffset(.default) == endBefore)
        }
    }

    /// A large commit is planned on two threads and its frame compressed on two: still one batch,
    /// dense offsets, each save under the change tag its offset gives, in request order.
    @Test("a large commit's saves and deletes are one batch, in request order, each save tagged with its offset", arguments: StoreKind.allCases)
    func largeCommitWrittenInOrder(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let doomed = (0..<10).map { makeRecord("old\($0)", ["text": .string("old")]) }
            _ = try await database.modifyRecords(saving: doomed, deleting: [])
            let start = try database.endOffset(.default)
            let saves = (0..<(database.maximumItemsPerRequest - doomed.count)).map {
                makeRecord("s\($0)", ["text": .string(String(repeating: "text \($0) ", count: 1 + $0 % 200))])
            }
            #expect(saves.count >= CommitTuning.standard.twoThreadPlanningItems)
            let result = try await database.modifyRecords(saving: saves, deleting: doomed.map(\.recordID))
            #expect(try database.batchCount(.default, from: start) == 1)
            let logged = try database.log.partition(named: ZoneID.default.zoneName).records(from: start, to: nil, limit: .max)
            #expect(logged.map(\.offset) == (start..<start + Int64(saves.count + doomed.count)).map { $0 })
            #expect(logged.map(\.keyString) == saves.map(\.recordID.recordName) + doomed.map(\.recordID.recordName))
            let incarnation = try database.zone(.default).incarnation
            for (index, save) in saves.enumerated() {
                let stored = try #require(try result.saveResults[save.recordID]?.get())
                #expect(stored.recordChangeTag == ChangeTag.make(incarnation: incarnation, offset: start + Int64(index)))
                #expect(try await database.record(for: save.recordID) == stored)
            }
        }
    }
}
