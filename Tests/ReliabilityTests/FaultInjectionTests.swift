import TestSupport
import Foundation
import RecordLog
import RecordStore
import ReliabilityHarness
import StorageKit
import Testing

/// Faults injected under the file layer: a failed or short write, a full disk, a failed fsync.
/// The engine reports a clear error, never acknowledges a commit it did not make durable, and
/// after a failed fsync refuses every later write until the store is reopened (PostgreSQL's
/// "fsyncgate" lesson: after a failed fsync, what reached the disk is unknown).
@Suite struct FaultInjectionTests {
    private let zone = ZoneID(zoneName: "Faults")

    private func note(_ name: String, _ text: String) -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
        record["text"] = .string(text)
        return record
    }

    /// A store with one zone and one acknowledged note, `kept`; `body` gets it with `rules`
    /// installed under it, then the store is reopened and checked.
    private func withFaults(
        _ rules: [FileFaultRule], _ body: (Database, FileFaultPlan) async throws -> Void,
        afterReopen check: (Database) async throws -> Void
    ) async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("Faults-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let database = try await HarnessStore.open(store)
        _ = try await database.createZone(zone)
        _ = try await database.modifyRecords(saving: [note("kept", "before the fault")], deleting: [])
        let plan = FileFaultPlan(root: store, rules: rules)
        FileFaults.install(plan)
        do {
            try await body(database, plan)
        } catch {
            FileFaults.remove(plan)
            throw error
        }
        FileFaults.remove(plan)
        #expect(plan.injectedCount > 0, "the fault was injected")
        try? database.close()
        let reopened = try await HarnessStore.open(store)
        #expect(try await reopened.record(for: RecordID(recordName: "kept", zoneID: zone))["text"] == .string("before the fault"))
        try await check(reopened)
        try reopened.close()
        try HarnessStore.verifyClean(store)
    }

    private func expectIOError(_ errno: Int32, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected an I/O error \(errno), nothing was thrown")
        } catch let error as LogError {
            guard case .io(_, _, let code) = error else { Issue.record("expected .io, got \(error)"); return }
            #expect(code == errno)
            #expect("\(error)".contains(SystemErrorText.message(errno)), "the message names the cause: \(error)")
        } catch {
            Issue.record("expected LogError.io, got \(type(of: error)): \(error)")
        }
    }

    @Test(arguments: [ENOSPC, EIO])
    func aFailedSegmentWriteFailsTheCommitAndChangesNothing(_ code: Int32) async throws {
        try await withFaults([FileFaultRule(.write, pathSuffix: ".log", effect: .fail(errno: code))]) { database, _ in
            await expectIOError(code) { _ = try await database.modifyRecords(saving: [self.note("lost", "never written")], deleting: []) }
            // Nothing of the failed commit is visible; the store keeps working once the disk does.
            let missing = try await database.records(for: [RecordID(recordName: "lost", zoneID: zone)])
            #expect(missing.values.allSatisfy { if case .failure = $0 { true } else { false } })
            _ = try await database.modifyRecords(saving: [note("after", "written once the disk had room")], deleting: [])
        } afterReopen: { reopened in
            let lost = try await reopened.records(for: [RecordID(recordName: "lost", zoneID: zone)])
            #expect(lost.values.allSatisfy { if case .failure = $0 { true } else { false } }, "the failed commit is not there")
            #expect(try await reopened.record(for: RecordID(recordName: "after", zoneID: zone))["text"] == .string("written once the disk had room"))
        }
    }

    @Test func aShortWriteLeavesNoPartialBatch() async throws {
        let rule = FileFaultRule(.write, pathSuffix: ".log", effect: .shortWrite(keeping: 40, errno: ENOSPC))
        try await withFaults([rule]) { database, _ in
            await expectIOError(ENOSPC) {
                _ = try await database.modifyRecords(saving: (0..<20).map { self.note("half-\($0)", String(repeating: "x", count: 200)) }, deleting: [])
            }
            _ = try await database.modifyRecords(saving: [note("after", "whole")], deleting: [])
        } afterReopen: { reopened in
            let half = try await reopened.records(for: (0..<20).map { RecordID(recordName: "half-\($0)", zoneID: zone) })
            #expect(half.values.allSatisfy { if case .failure = $0 { true } else { false } }, "no record of the cut batch")
            #expect(try await reopened.record(for: RecordID(recordName: "after", zoneID: zone))["text"] == .string("whole"))
        }
    }

    @Test func aFailedFsyncIsNeverAcknowledgedAndRefusesWritesUntilReopened() async throws {
        try await withFaults([FileFaultRule(.sync, pathSuffix: ".log", effect: .fail(errno: EIO))]) { database, _ in
            do {
                _ = try await database.modifyRecords(saving: [note("unsure", "fsync failed")], deleting: [])
                Issue.record("a commit whose fsync failed was acknowledged")
            } catch let error as LogError {
                guard case .poisoned(let reason) = error else { Issue.record("expected .poisoned, got \(error)"); return }
                #expect(reason.contains("fdatasync"))
            }
            // The fault is gone, but what reached the disk is unknown: writes stay refused.
            do {
                _ = try await database.modifyRecords(saving: [note("refused", "after the failed fsync")], deleting: [])
                Issue.record("a write after a failed fsync was accepted")
            } catch let error as LogError {
                guard case .poisoned = error else { Issue.record("expected .poisoned, got \(error)"); return }
                #expect("\(error)".contains("reopen"), "the message says how to recover: \(error)")
            }
            // Reads of acknowledged data still answer.
            #expect(try await database.record(for: RecordID(recordName: "kept", zoneID: zone))["text"] == .string("before the fault"))
        } afterReopen: { reopened in
            let refused = try await reopened.records(for: [RecordID(recordName: "refused", zoneID: zone)])
            #expect(refused.values.allSatisfy { if case .failure = $0 { true } else { false } })
            _ = try await reopened.modifyRecords(saving: [note("again", "writes work after reopening")], deleting: [])
        }
    }

    @Test func aFullDiskDuringACheckpointLosesNothing() async throws {
        try await withFaults([FileFaultRule(.write, pathSuffix: ".tmp", times: nil, effect: .fail(errno: ENOSPC))]) { database, _ in
            _ = try await database.modifyRecords(saving: [note("second", "before the checkpoint")], deleting: [])
            let checkpointFailed = (try? database.checkpoint()) == nil
            #expect(checkpointFailed, "the checkpoint reports the full disk")
            _ = try await database.modifyRecords(saving: [note("third", "after the failed checkpoint")], deleting: [])
        } afterReopen: { reopened in
            let second = try await reopened.record(for: RecordID(recordName: "second", zoneID: zone))
            let third = try await reopened.record(for: RecordID(recordName: "third", zoneID: zone))
            #expect(second["text"] == .string("before the checkpoint"))
            #expect(third["text"] == .string("after the failed checkpoint"))
        }
    }

    @Test func aSegmentThatCannotBeCreatedFailsTheCommitThatRollsIt() async throws {
        // 100 KB records that LZ4 cannot shrink roll the harness's 256 KiB segments every few commits.
        var random = SeededGenerator(seed: 3)
        let texts = (0..<6).map { _ in String((0..<100_000).map { _ in Character(Unicode.Scalar(UInt8.random(in: 33...126, using: &random))) }) }
        var acknowledged: Set<Int> = []
        try await withFaults([FileFaultRule(.create, pathSuffix: ".log", times: nil, effect: .fail(errno: ENOSPC))]) { database, _ in
            var failures = 0
            for index in 0..<6 {
                do {
                    _ = try await database.modifyRecords(saving: [note("big-\(index)", texts[index])], deleting: [])
                    acknowledged.insert(index)
                } catch {
                    failures += 1
                }
            }
            #expect(failures > 0, "a roll was needed and refused")
        } afterReopen: { reopened in
            // What was acknowledged is there, whole; what failed is not.
            for index in 0..<6 {
                let result = try await reopened.records(for: [RecordID(recordName: "big-\(index)", zoneID: zone)])
                if case .success(let record)? = result.values.first {
                    #expect(acknowledged.contains(index), "big-\(index) failed yet is there")
                    #expect(record["text"] == .string(texts[index]))
                } else {
                    #expect(!acknowledged.contains(index), "big-\(index) was acknowledged and is lost")
                }
            }
        }
    }
}
