import RecordLog
import RecordStore
import StorageKit

/// The corruption sweep: flips bytes of a closed store's files, one at a time, and opens the
/// store after each flip. Every open must give the exact prior state or a clear, typed error —
/// never a crash (the sweep would die with it), never a store that opens and answers
/// differently (a silent loss).
///
/// Each flip is judged on a store whose every other file is exactly as it was: after each open
/// the sweep reads every file back, compares it whole with the image taken before the sweep,
/// rewrites what differs and removes what the open created (``StoreImage/restore(into:)``).
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

    /// Which of a sweep's flips one process makes: those whose index in the sweep's order
    /// (``plan(sizes:stride:shard:)``), modulo `count`, is `index`. The shards 0/N … N-1/N of one
    /// sweep make each of its flips exactly once, spread evenly over the files.
    package struct Shard: Sendable, Equatable, CustomStringConvertible {
        package let index: Int
        package let count: Int

        /// Every flip.
        package static let whole = Shard(uncheckedIndex: 0, count: 1)

        private init(uncheckedIndex index: Int, count: Int) {
            self.index = index
            self.count = count
        }

        /// `I/N`, with 0 ≤ I < N; nil for anything else.
        package init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, (0..<count).contains(index) else { return nil }
            self.init(uncheckedIndex: index, count: count)
        }

        package func takes(_ flip: Int) -> Bool { flip % count == index }

        package var description: String { "\(index)/\(count)" }
    }

    /// Files of at most this many bytes (meta, names, marks) are flipped whole whatever the stride.
    package static let wholeFileBytes = 256

    /// The store, closed; the sweep puts each file back after each flip.
    package let store: String
    /// What the store holds, as read before the sweep.
    package let expected: StoreModel
    /// Every file and directory of the store, as before the sweep.
    package let image: StoreImage
    /// Every file of the store, relative to it, with its bytes, sorted by path.
    package var files: [StoreImage.File] { image.files }

    package init(store: String) async throws {
        self.store = store
        expected = try await HarnessStore.recoverAndRead(store)
        image = try StoreImage(of: store)
    }

    /// The positions a sweep flips in each file, in its order (files by path, positions
    /// ascending): every byte of a file of at most ``wholeFileBytes``, every `stride`-th byte of a
    /// larger one (from its first); of those, the ones `shard` takes. Files it takes none of are
    /// listed with no positions.
    package static func plan(sizes: [(path: String, count: Int)], stride: Int, shard: Shard = .whole) -> [(path: String, positions: [Int])] {
        var index = 0
        return sizes.map { file in
            let step = file.count <= wholeFileBytes ? 1 : max(1, stride)
            var positions: [Int] = []
            for position in Swift.stride(from: 0, to: file.count, by: step) {
                if shard.takes(index) { positions.append(position) }
                index += 1
            }
            return (file.path, positions)
        }
    }

    /// ``plan(sizes:stride:shard:)`` for this store's files whose path starts with `prefix`.
    package func plan(stride: Int, shard: Shard = .whole, only prefix: String = "") -> [(path: String, positions: [Int])] {
        Self.plan(sizes: files.filter { $0.path.hasPrefix(prefix) }.map { ($0.path, $0.bytes.count) }, stride: stride, shard: shard)
    }

    /// Flips the byte at `position` of `file` (every bit), opens the store, and puts the store
    /// back as it was.
    ///
    /// - Throws: when the flip cannot be written or the store cannot be put back: the sweep
    ///   cannot go on (a refusal of the open is an outcome, not an error).
    package func flip(_ file: String, at position: Int) async throws -> Flip {
        guard let original = image.file(file)?.bytes, original.indices.contains(position) else {
            throw HarnessError.corruptionSweep("\(file) has no byte at \(position)")
        }
        // One byte written in place: every other byte of every file is as the image has it
        // (put back after the previous flip).
        let path = FileSystem.join(store, file)
        try OpenFile(path: path, writable: true).write([original[position] ^ 0xFF], at: Int64(position))
        let outcome = await open()
        try image.restore(into: store)
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
        case HarnessError.viewMismatch(let difference): .silentlyDifferent("the view: \(difference)")
        default: .silentlyDifferent("untyped error \(type(of: error)): \(error)")
        }
    }
}
