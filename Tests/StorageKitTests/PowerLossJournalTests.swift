import Foundation
@testable import StorageKit
import Testing

/// The power-loss model the harness relies on: what was synced stays, what was not goes.
@Suite struct PowerLossJournalTests {
    /// A root directory with a journal recording under it; the plan cuts nothing by itself.
    private func withJournal(_ body: (String, PowerLossJournal) throws -> Void) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("Journal-\(UUID().uuidString)").path
        try FileSystem.makeDirectory(base)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let root = base + "/root"
        try FileSystem.makeDirectory(root)
        let journal = PowerLossJournal(root: root, shadowDirectory: base + "/shadow")
        let plan = FileFaultPlan(root: root, journal: journal)
        FileFaults.install(plan)
        defer { FileFaults.remove(plan) }
        try body(root, journal)
    }

    private func write(_ text: String, to path: String, sync: Bool) throws {
        let file = try OpenFile(path: path, writable: true, create: true)
        try file.truncate(to: 0)
        try file.write(Array(text.utf8), at: 0)
        if sync { try file.syncData() }
    }

    private func content(_ path: String) -> String? {
        (try? FileSystem.readAll(path)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func syncedDataStaysAndUnsyncedDataGoes() throws {
        try withJournal { root, journal in
            try write("durable", to: root + "/a", sync: true)
            try FileSystem.syncDirectory(root)
            let file = try OpenFile(path: root + "/a", writable: true)
            try file.write(Array(" and not".utf8), at: 7)
            try write("never synced", to: root + "/b", sync: false)
            journal.simulatePowerLoss(.cutToSyncedSize)
            #expect(content(root + "/a") == "durable")
            #expect(!FileSystem.exists(root + "/b"), "a file whose directory was never synced is gone")
        }
    }

    @Test func aRemovedDirectoryComesBackWithItsFilesUnlessItsParentWasSynced() throws {
        try withJournal { root, journal in
            try FileSystem.makeDirectory(root + "/doomed")
            try write("kept", to: root + "/doomed/file", sync: true)
            try FileSystem.syncDirectory(root + "/doomed")
            try FileSystem.syncDirectory(root)
            try FileSystem.removeTree(root + "/doomed")
            journal.simulatePowerLoss(.cutToSyncedSize)
            #expect(content(root + "/doomed/file") == "kept")
        }
    }

    @Test func aRenameWithoutADirectorySyncIsUndone() throws {
        try withJournal { root, journal in
            try write("old", to: root + "/target", sync: true)
            try write("new", to: root + "/target.tmp", sync: true)
            try FileSystem.syncDirectory(root)
            try FileSystem.rename(root + "/target.tmp", root + "/target")
            journal.simulatePowerLoss(.cutToSyncedSize)
            #expect(content(root + "/target") == "old")
            #expect(content(root + "/target.tmp") == "new")
        }
    }

    @Test func aDirectoryRenamedAwayAndMadeAgainKeepsItsNewFiles() throws {
        try withJournal { root, journal in
            // A zone deleted (renamed aside, emptied) and created again under the same name.
            try FileSystem.makeDirectory(root + "/zone")
            try write("first incarnation", to: root + "/zone/log", sync: true)
            try FileSystem.syncDirectory(root + "/zone")
            try FileSystem.syncDirectory(root)
            try FileSystem.rename(root + "/zone", root + "/.deleted-zone")
            try FileSystem.syncDirectory(root)
            try FileSystem.removeTree(root + "/.deleted-zone")
            try FileSystem.makeDirectory(root + "/.tmp-zone")
            try write("second", to: root + "/.tmp-zone/log", sync: true)
            try FileSystem.syncDirectory(root + "/.tmp-zone")
            try FileSystem.rename(root + "/.tmp-zone", root + "/zone")
            try FileSystem.syncDirectory(root)
            journal.simulatePowerLoss(.cutToSyncedSize)
            #expect(content(root + "/zone/log") == "second")
            #expect(!FileSystem.exists(root + "/.deleted-zone"), "its removal was made durable by the last directory sync")
        }
    }
}
