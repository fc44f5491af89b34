#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import RecordLog

@Suite struct LockingTests {
    @Test("a second writer on the same directory is refused while the first is open")
    func secondWriterRefused() async throws {
        try await withStorePath { store in
            let first = try Log(directory: store, options: fastOptions())
            #expect(throws: LogError.locked(path: store)) { try Log(directory: store, options: fastOptions()) }
            try first.close()
        }
    }

    @Test("a lock let go unlocks the store even while another descriptor of its file is open, as in a child being spawned")
    func releasedLockUnlocksDespiteCopies() async throws {
        try await withStorePath { store in
            try Log(directory: store, options: fastOptions()).close()
            var copy: Int32 = -1
            do {
                let lock = try StoreLock(directory: store)
                // What a child process spawned by another thread holds until it runs its program.
                copy = dup(lock.file.descriptor)
            }
            defer { close(copy) }
            #expect(copy >= 0)
            let next = try StoreLock.attempt(directory: store)
            #expect(next != nil, "the lock outlived its holder")
            next?.release()
            let repaired = try Log.repair(directory: store, options: fastOptions())
            #expect(repaired.repairs.isEmpty)
            try Log(directory: store, options: fastOptions()).close()
        }
    }

    @Test("after the first writer closes and is released, opening works")
    func reopenAfterRelease() async throws {
        try await withStorePath { store in
            do {
                let first = try Log(directory: store, options: fastOptions())
                try await first.createPartition(named: "Notes").append(Sample.events(0..<2), batchSize: 2)
                try first.close()
            }
            let second = try Log(directory: store, options: fastOptions())
            #expect(try second.partition(named: "Notes").endOffset == 2)
            try second.close()
        }
    }

    @Test("a read-only open works while the writer holds the lock, sees its data, and refuses writes")
    func readOnlyBesideWriter() async throws {
        try await withStorePath { store in
            let writer = try Log(directory: store, options: fastOptions())
            let events = Sample.events(0..<6)
            try await writer.createPartition(named: "Notes").append(events, batchSize: 3)
            try writer.sync()  // a reader sees what is durable

            let reader = try Log(directory: store, options: fastOptions(readOnly: true))
            let notes = try reader.partition(named: "Notes")
            #expect(try notes.events() == events)
            await #expect(throws: LogError.readOnly) { try await notes.append(RecordBatchBuilder(events[0..<1])) }
            await #expect(throws: LogError.readOnly) { try await reader.append(RecordBatchBuilder(events[0..<1]), to: "Notes") }
            #expect(throws: LogError.readOnly) { try reader.createPartition(named: "Other") }
            #expect(throws: LogError.readOnly) { try reader.deletePartition(named: "Notes") }
            try reader.close()

            // The writer still holds the lock and goes on writing.
            #expect(throws: LogError.locked(path: store)) { try Log(directory: store, options: fastOptions()) }
            #expect(try await writer.append(RecordBatchBuilder(events[0..<1]), to: "Notes") == 6..<7)
            try writer.close()
        }
    }

    @Test("a read-only open of a directory that is not a store fails and creates nothing")
    func readOnlyOfMissingStore() async throws {
        try await withTemporaryDirectory { root in
            let error = #expect(throws: LogError.self) { try Log(directory: root, options: fastOptions(readOnly: true)) }
            guard case .notAStore? = error else {
                Issue.record("expected notAStore, got \(String(describing: error))")
                return
            }
            let entries = try listDirectory(root)
            #expect(entries.isEmpty)
        }
    }
}
