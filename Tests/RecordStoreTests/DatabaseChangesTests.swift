import Foundation
@testable import RecordStore
import Testing
import TuningSupport
import TestSupport

/// fetchZoneChanges, fetchDatabaseChanges and change tokens.
@Suite(.everyTuning) struct DatabaseChangesTests {
    private let zone = ZoneID(zoneName: "Z")

    @Test("a nil token returns everything: each live record once, in its latest state; deletions with their record type", arguments: StoreKind.allCases)
    func nilTokenIsEverything(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            var a = try await database.save(makeRecord("a", zone: zone, type: "Note", ["v": .int64(1)]))
            _ = try await database.save(makeRecord("b", zone: zone, type: "Task"))
            a["v"] = .int64(2)
            a = try await database.save(a)
            try await database.delete(RecordID(recordName: "b", zoneID: zone))
            var c = try await database.save(makeRecord("c", zone: zone, type: "Note"))
            a["v"] = .int64(3)
            a = try await database.save(a)
            c["w"] = .string("x")
            c = try await database.save(c)
            _ = try await database.save(makeRecord("elsewhere"))  // another zone

            let changes = try await database.fetchZoneChanges(in: zone, since: nil)
            #expect(changes.changedRecords == [a, c], "each once, latest state, in the order of their last change")
            #expect(changes.deletions == [.init(recordID: RecordID(recordName: "b", zoneID: zone), recordType: "Task")])
            #expect(!changes.moreComing)

            let again = try await database.fetchZoneChanges(in: zone, since: changes.changeToken)
            #expect(again.changedRecords.isEmpty && again.deletions.isEmpty && !again.moreComing)
            #expect(again.changeToken == changes.changeToken, "no change, same position")

            // The changes after the token, and only those.
            try await database.delete(a.recordID)
            let b2 = try await database.save(makeRecord("b", zone: zone, type: "Note"))
            let later = try await database.fetchZoneChanges(in: zone, since: changes.changeToken)
            #expect(later.changedRecords == [b2])
            #expect(later.deletions == [.init(recordID: a.recordID, recordType: "Note")])
        }
    }

    @Test("fetchZoneChanges honours desiredKeys", arguments: StoreKind.allCases)
    func changesDesiredKeys(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let saved = try await database.save(makeRecord("a", ["x": .int64(1), "y": .int64(2)]))
            let none = try await database.fetchZoneChanges(in: .default, since: nil, desiredKeys: [])
            #expect(none.changedRecords.map { $0.allKeys() } == [[]])
            #expect(none.changedRecords.first?.recordChangeTag == saved.recordChangeTag)
            let some = try await database.fetchZoneChanges(in: .default, since: nil, desiredKeys: ["y"])
            #expect(some.changedRecords.first?.allKeys() == ["y"])
            #expect(some.changedRecords.first?.changedKeys() == [])
        }
    }

    // MARK: Token chains over random histories

    /// The history's operations: what the store should hold after each event of the zone.
    private struct Model {
        /// The zone's state after each event: `states[k]` after the first k events since `base`.
        var states: [[String: Record]] = [[:]]
        /// For each event: the record name it touched.
        var touched: [String] = []
        var current: [String: Record] { states.last ?? [:] }
    }

    /// A random history of single-event saves and deletes (no cascades), recorded in `model`.
    private func singleEventHistory(_ database: Database, seed: UInt64, count: Int) async throws -> Model {
        var generator = SeededGenerator(seed: seed)
        var model = Model()
        let names = (0..<7).map { "r\($0)" }
        for step in 0..<count {
            let name = names.randomElement(using: &generator)!
            var state = model.current
            if let existing = state[name], Int.random(in: 0..<4, using: &generator) == 0 {
                try await database.delete(existing.recordID)
                state[name] = nil
            } else {
                var record = state[name] ?? makeRecord(name, zone: zone, type: ["Note", "Task"].randomElement(using: &generator)!)
                record["step"] = .int64(Int64(step))
                if Bool.random(using: &generator) { record["flag"] = .bool(Bool.random(using: &generator)) } else { record["flag"] = nil }
                state[name] = try await database.save(record)
            }
            model.states.append(state)
            model.touched.append(name)
        }
        return model
    }

    /// The offset a zone token points at.
    private func offset(of token: ServerChangeToken, in database: Database) throws -> Int64 {
        guard case .zone(let entry, _) = try TokenContent.decode(token, storeID: database.storeID) else {
            Issue.record("not a zone token")
            return -1
        }
        return entry.position.offset
    }

    @Test("chaining tokens with resultsLimit 1, 2, 3 yields every change exactly once, pages are exact prefixes", arguments: StoreKind.allCases, [1, 2, 3])
    func tokenChainsExact(kind: StoreKind, limit: Int) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            let base = try database.endOffset(zone)
            #expect(base == 0)
            let model = try await singleEventHistory(database, seed: UInt64(limit) * 1000 + 17, count: 80)
            #expect(try database.endOffset(zone) == Int64(model.touched.count))

            var cache: [String: Record] = [:]
            var token: ServerChangeToken?
            var position = 0
            var pages = 0
            while true {
                let page = try await database.fetchZoneChanges(in: zone, since: token, resultsLimit: limit)
                pages += 1
                let next = Int(try offset(of: page.changeToken, in: database))
                #expect(next > position || (next == position && !page.moreComing), "the position moves on")
                // The page is exactly the names touched by events position..<next, each once, in
                // their state after event next, ordered by their last event.
                let range = model.touched[position..<next]
                var lastIndex: [String: Int] = [:]
                for (index, name) in zip(range.indices, range) { lastIndex[name] = index }
                let expectedOrder = lastIndex.sorted { $0.value < $1.value }.map(\.key)
                let stateAfter = model.states[next]
                let expectedChanged = expectedOrder.compactMap { stateAfter[$0] }
                let expectedDeleted = expectedOrder.filter { stateAfter[$0] == nil }
                #expect(page.changedRecords == expectedChanged, "page \(pages) at \(position)..<\(next)")
                #expect(page.deletions.map(\.recordID.recordName) == expectedDeleted, "page \(pages)")
                #expect(page.changedRecords.count + page.deletions.count <= limit)
                for deletion in page.deletions {
                    let type = model.states[..<next].last { $0[deletion.recordID.recordName] != nil }?[deletion.recordID.recordName]?.recordType
                    #expect(deletion.recordType == type, "a deletion carries the deleted record's type")
                }
                for record in page.changedRecords { cache[record.recordID.recordName] = record }
                for deletion in page.deletions { cache[deletion.recordID.recordName] = nil }
                #expect(cache == model.states[next], "after a page the client holds the state at its token")
                position = next
                token = page.changeToken
                if !page.moreComing { break }
                if pages > 200 { Issue.record("no end to the pages"); break }
            }
            #expect(position == model.touched.count)
            let ids = (0..<7).map { RecordID(recordName: "r\($0)", zoneID: zone) }
            let truth = try await database.records(for: ids).compactMapValues { try? $0.get() }
            #expect(cache == Dictionary(uniqueKeysWithValues: truth.map { ($0.key.recordName, $0.value) }))
            let tail = try await database.fetchZoneChanges(in: zone, since: token, resultsLimit: limit)
            #expect(tail.changedRecords.isEmpty && tail.deletions.isEmpty && !tail.moreComing)
        }
    }

    @Test("token chains over a random history of batches and cascades end in the store's state", arguments: StoreKind.allCases, [1, 2, 3])
    func tokenChainsWithBatches(kind: StoreKind, limit: Int) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            var generator = SeededGenerator(seed: UInt64(limit) &* 7919)
            let names = (0..<10).map { "r\($0)" }
            try await writeRandomHistory(database, zone: zone, names: names, steps: 50, using: &generator)
            let end = try database.endOffset(zone)

            var cache: [String: Record] = [:]
            var token: ServerChangeToken?
            var entries = 0
            var seenNames = Set<String>()
            for _ in 0..<1000 {
                let page = try await database.fetchZoneChanges(in: zone, since: token, resultsLimit: limit)
                let pageNames = page.changedRecords.map(\.recordID.recordName) + page.deletions.map(\.recordID.recordName)
                #expect(Set(pageNames).count == pageNames.count, "a name at most once per page")
                #expect(pageNames.count <= limit)
                entries += pageNames.count
                seenNames.formUnion(pageNames)
                for record in page.changedRecords { cache[record.recordID.recordName] = record }
                for deletion in page.deletions { cache[deletion.recordID.recordName] = nil }
                token = page.changeToken
                if !page.moreComing { break }
            }
            #expect(entries <= Int(end), "never more entries than events")
            #expect(seenNames.isSubset(of: Set(names)))
            let truth = try await database.records(for: names.map { RecordID(recordName: $0, zoneID: zone) }).compactMapValues { try? $0.get() }
            #expect(cache == Dictionary(uniqueKeysWithValues: truth.map { ($0.key.recordName, $0.value) }))
        }
    }

    @Test("resultsLimit 0 is as many as possible (CloudKit's maximumResults); a negative limit is refused", arguments: StoreKind.allCases)
    func degenerateLimits(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.modifyRecords(saving: [makeRecord("a"), makeRecord("b")], deleting: [])
            let page = try await database.fetchZoneChanges(in: .default, since: nil, resultsLimit: 0)
            #expect(page.changedRecords.count == 2)
            #expect(!page.moreComing)
            await expectError(.invalidArguments) { _ = try await database.fetchZoneChanges(in: .default, since: nil, resultsLimit: -5) }
        }
    }

    // MARK: Token errors

    @Test("malformed, truncated and bit-flipped tokens are refused with invalidArguments", arguments: StoreKind.allCases)
    func malformedTokens(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.save(makeRecord("a"))
            let good = try await database.fetchZoneChanges(in: .default, since: nil).changeToken
            let bytes = [UInt8](good.data)
            #expect(bytes.count < 100, "compact: \(bytes.count) bytes")

            var bad: [(String, [UInt8])] = [("empty", []), ("garbage", Array("hello, world! this is not a token".utf8)),
                                            ("magic then garbage", Array("RLTK".utf8) + [UInt8](repeating: 0xEE, count: 40))]
            for length in 0..<bytes.count { bad.append(("truncated to \(length)", Array(bytes.prefix(length)))) }
            bad.append(("a trailing byte", bytes + [0]))
            for bit in 0..<(bytes.count * 8) {
                var flipped = bytes
                flipped[bit / 8] ^= UInt8(1 << (bit % 8))
                bad.append(("bit \(bit) flipped", flipped))
            }
            for (label, data) in bad {
                await expectError(.invalidArguments, "zone token, \(label)") {
                    _ = try await database.fetchZoneChanges(in: .default, since: ServerChangeToken(data: Data(data)))
                }
            }

            let databaseToken = try await database.fetchDatabaseChanges(since: nil).changeToken
            let databaseBytes = [UInt8](databaseToken.data)
            for length in [0, 10, databaseBytes.count / 2, databaseBytes.count - 1] {
                await expectError(.invalidArguments, "database token truncated to \(length)") {
                    _ = try await database.fetchDatabaseChanges(since: ServerChangeToken(data: Data(databaseBytes.prefix(length))))
                }
            }
            for bit in stride(from: 0, to: databaseBytes.count * 8, by: 3) {
                var flipped = databaseBytes
                flipped[bit / 8] ^= UInt8(1 << (bit % 8))
                await expectError(.invalidArguments, "database token, bit \(bit) flipped") {
                    _ = try await database.fetchDatabaseChanges(since: ServerChangeToken(data: Data(flipped)))
                }
            }
            // The good tokens still work.
            _ = try await database.fetchZoneChanges(in: .default, since: good)
            _ = try await database.fetchDatabaseChanges(since: databaseToken)
        }
    }

    @Test("a token of another store, another zone, or of the wrong kind is refused with invalidArguments", arguments: StoreKind.allCases)
    func foreignTokens(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await withTemporaryDatabase(kind) { other in
                _ = try await database.save(makeRecord("a"))
                _ = try await other.save(makeRecord("a"))
                try await database.createZone(zone)
                let foreignZoneToken = try await other.fetchZoneChanges(in: .default, since: nil).changeToken
                let foreignDatabaseToken = try await other.fetchDatabaseChanges(since: nil).changeToken
                let error = await expectError(.invalidArguments, "another store's zone token") {
                    _ = try await database.fetchZoneChanges(in: .default, since: foreignZoneToken)
                }
                #expect(error?.message.contains("another store") == true)
                await expectError(.invalidArguments, "another store's database token") {
                    _ = try await database.fetchDatabaseChanges(since: foreignDatabaseToken)
                }

                let defaultToken = try await database.fetchZoneChanges(in: .default, since: nil).changeToken
                await expectError(.invalidArguments, "another zone's token") {
                    _ = try await database.fetchZoneChanges(in: zone, since: defaultToken)
                }
                let databaseToken = try await database.fetchDatabaseChanges(since: nil).changeToken
                await expectError(.invalidArguments, "a database token as a zone token") {
                    _ = try await database.fetchZoneChanges(in: .default, since: databaseToken)
                }
                await expectError(.invalidArguments, "a zone token as a database token") {
                    _ = try await database.fetchDatabaseChanges(since: defaultToken)
                }
            }
        }
    }

    @Test("a token of a deleted and recreated zone is changeTokenExpired", arguments: StoreKind.allCases)
    func recreatedZoneToken(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            _ = try await database.save(makeRecord("a", zone: zone))
            let empty = try await database.fetchZoneChanges(in: zone, since: nil).changeToken
            _ = try await database.save(makeRecord("b", zone: zone))
            try await database.deleteZone(zone)
            await expectError(.zoneNotFound) { _ = try await database.fetchZoneChanges(in: zone, since: empty) }
            try await database.createZone(zone)
            // Offsets 0..2 exist again in the new zone: the token must still be refused.
            _ = try await database.modifyRecords(saving: [makeRecord("c", zone: zone), makeRecord("d", zone: zone), makeRecord("e", zone: zone)], deleting: [])
            let error = await expectError(.changeTokenExpired) { _ = try await database.fetchZoneChanges(in: zone, since: empty) }
            #expect(error?.zoneID == zone)
        }
    }

    @Test("a token past the zone's end (a store restored from an older copy) is changeTokenExpired")
    func tokenPastTheEnd() async throws {
        try await withStoreDirectory { path in
            try await withStoreDirectory { copyPath in
                let database = try await Database(directory: path, durability: .noSyncUnsafe)
                _ = try await database.save(makeRecord("a"))
                try copyStore(from: path, to: copyPath)
                _ = try await database.save(makeRecord("b"))
                let token = try await database.fetchZoneChanges(in: .default, since: nil).changeToken
                try database.close()

                let restored = try await Database(directory: copyPath, durability: .noSyncUnsafe)
                await expectError(.changeTokenExpired) { _ = try await restored.fetchZoneChanges(in: .default, since: token) }
                #expect(try await restored.fetchZoneChanges(in: .default, since: nil).changedRecords.map(\.recordID.recordName) == ["a"])
                try restored.close()
            }
        }
    }

    @Test("tokens round-trip through JSONEncoder/JSONDecoder and still work", arguments: StoreKind.allCases)
    func tokensAreCodable(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.save(makeRecord("a"))
            let zoneToken = try await database.fetchZoneChanges(in: .default, since: nil).changeToken
            let databaseToken = try await database.fetchDatabaseChanges(since: nil).changeToken
            struct Cache: Codable { var zone: ServerChangeToken; var database: ServerChangeToken }
            let json = try JSONEncoder().encode(Cache(zone: zoneToken, database: databaseToken))
            let decoded = try JSONDecoder().decode(Cache.self, from: json)
            #expect(decoded.zone == zoneToken && decoded.database == databaseToken)
            #expect(ServerChangeToken(data: zoneToken.data) == zoneToken)

            let b = try await database.save(makeRecord("b"))
            #expect(try await database.fetchZoneChanges(in: .default, since: decoded.zone).changedRecords == [b])
            let zones = try await database.fetchDatabaseChanges(since: decoded.database)
            #expect(zones.changedZones == [.default] && zones.deletedZones == [])

            #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode([ServerChangeToken].self, from: Data(#"["not base64!"]"#.utf8)) }
        }
    }

    // MARK: Database changes

    @Test("fetchDatabaseChanges: changed zones, deleted zones, and a recreated zone in both", arguments: StoreKind.allCases)
    func databaseChanges(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let a = ZoneID(zoneName: "A")
            let b = ZoneID(zoneName: "B")
            let c = ZoneID(zoneName: "C")
            try await database.createZone(a)
            try await database.createZone(b)
            let first = try await database.fetchDatabaseChanges(since: nil)
            #expect(first.changedZones == [a, b, .default])
            #expect(first.deletedZones == [])
            #expect(!first.moreComing)

            let quiet = try await database.fetchDatabaseChanges(since: first.changeToken)
            #expect(quiet.changedZones == [] && quiet.deletedZones == [])

            _ = try await database.save(makeRecord("r", zone: a))
            try await database.createZone(c)
            let second = try await database.fetchDatabaseChanges(since: first.changeToken)
            #expect(second.changedZones == [a, c])
            #expect(second.deletedZones == [])

            try await database.deleteZone(b)
            let third = try await database.fetchDatabaseChanges(since: second.changeToken)
            #expect(third.changedZones == [])
            #expect(third.deletedZones == [b])

            // Deleted and created again (even with no records): both deleted and changed.
            try await database.deleteZone(c)
            try await database.createZone(c)
            let fourth = try await database.fetchDatabaseChanges(since: third.changeToken)
            #expect(fourth.deletedZones == [c])
            #expect(fourth.changedZones == [c])

            // From the first token, everything that happened since.
            let all = try await database.fetchDatabaseChanges(since: first.changeToken)
            #expect(all.changedZones == [a, c])
            #expect(all.deletedZones == [b])

            // A zone created and deleted between two tokens is in neither list.
            let before = try await database.fetchDatabaseChanges(since: nil).changeToken
            let ephemeral = ZoneID(zoneName: "E")
            try await database.createZone(ephemeral)
            try await database.deleteZone(ephemeral)
            let after = try await database.fetchDatabaseChanges(since: before)
            #expect(after.changedZones == [] && after.deletedZones == [])
        }
    }
}
