import Foundation
import RecordLog
import RecordStore

/// The corruption sweep: flips bytes of a closed store's files, one at a time, and opens the
/// store after each flip. Every open must give the exact prior state or a clear, typed error —
/// never a crash (the sweep would die with it), never a store that opens and answers
/// differently (a silent loss).
package struct CorruptionSweep {
    /// What one flip led to.
    package enum Outcome: Sendable, Equatable {
        /// The store opened and answered exactly as before.
        case sameState
        /// The open (or a read) failed with a typed error that says what is wrong.
        case refused(String)
        /// The store opened and answered differently: a silent loss.
        case silentlyDifferent(String)
    }

    /// One flipped byte and what it led to.
    package struct Flip: Sendable, CustomStringConvertible {
        package var file: String
        package var position: Int
        package var outcome: Outcome

        package var description: String { "\(file)@\(position): \(outcome)" }
    }

    /// The store, closed; the sweep puts each file back after each flip.
    package let store: String
    /// What the store holds, as read before the sweep.
    package let expected: StoreModel
    /// Every file of the store, relative to it, with its bytes.
    package let files: [(path: String, bytes: [UInt8])]

    package init(store: String) async throws {
        self.store = store
        expected = try await HarnessStore.recoverAndRead(store)
        var files: [(String, [UInt8])] = []
        let base = URL(fileURLWithPath: store).resolvingSymlinksInPath().path
        if let walker = FileManager.default.enumerator(atPath: base) {
            while let relative = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                let path = base + "/" + relative
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                // The lock file holds no data.
                if relative.hasSuffix(".lock") { continue }
                files.append((relative, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
            }
        }
        self.files = files.sorted { $0.0 < $1.0 }
    }

    /// Flips the byte at `position` of `file` (every bit), opens the store, and puts the file back.
    package func flip(_ file: String, at position: Int) async -> Flip {
        guard let original = files.first(where: { $0.path == file })?.bytes, position < original.count else {
            return Flip(file: file, position: position, outcome: .refused("no such byte"))
        }
        let path = store + "/" + file
        var damaged = original
        damaged[position] ^= 0xFF
        let outcome: Outcome
        do {
            try restoreAll()
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            outcome = await open()
        } catch {
            outcome = .refused("could not write the flip: \(error)")
        }
        try? restoreAll()
        return Flip(file: file, position: position, outcome: outcome)
    }

    /// Opens the damaged store for writing (as an app would) and reads everything.
    private func open() async -> Outcome {
        let database: Database
        do {
            database = try await HarnessStore.openWithoutSyncs(store)
        } catch {
            return Self.judge(error)
        }
        defer { try? database.close() }
        do {
            let actual = try await StoreReader.model(of: database)
            return actual == expected ? .sameState : .silentlyDifferent(expected.differences(from: actual))
        } catch {
            return Self.judge(error)
        }
    }

    /// A typed error with a message is a clear refusal; anything else is a finding too.
    private static func judge(_ error: any Error) -> Outcome {
        switch error {
        case let error as LogError: .refused("LogError: \(error)")
        case let error as RecordStoreError: .refused("RecordStoreError: \(error)")
        default: .silentlyDifferent("untyped error \(type(of: error)): \(error)")
        }
    }

    /// Puts every file back as it was, and removes any the open created.
    private func restoreAll() throws {
        let known = Set(files.map(\.path))
        if let walker = FileManager.default.enumerator(atPath: store) {
            var extra: [String] = []
            while let relative = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: store + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                if !known.contains(relative), !relative.hasSuffix(".lock") { extra.append(relative) }
            }
            for relative in extra { try FileManager.default.removeItem(atPath: store + "/" + relative) }
        }
        for file in files {
            let url = URL(fileURLWithPath: store + "/" + file.path)
            // Only what differs is written back: most files are untouched by an open.
            if let current = try? Data(contentsOf: url), current.elementsEqual(file.bytes) { continue }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
    }
}
