import Dispatch
import StorageKit
import Foundation
import Synchronization

/// Two threads for one replay: a reading thread reads, checks and decompresses the log and checks
/// every saved record, handing the events over in ``ReplayChunk``s; the calling thread folds them
/// into the views, in log order. On two cores a long replay takes about half the time.
///
/// At most `depth` chunks exist: the reader waits for the folder to give one back, so a replay's
/// memory stays bounded whatever the log's size. A reading error reaches the folder after the
/// events before it, as it would when reading and folding on one thread.
final class ReplayPipeline: Sendable {
    private enum Item {
        case chunk(ReplayChunk)
        case end((any Error)?)
    }

    /// Filled chunks and the end, in order.
    private let queue = LockedValue<[Item]>([])
    private let itemReady = DispatchSemaphore(value: 0)
    /// Chunks given back, and how many may still be made.
    private let spares = LockedValue<(chunks: [ReplayChunk], unmade: Int)>(([], 0))
    private let spareReady: DispatchSemaphore
    private let cancelled = Atomic<Bool>(false)
    private let readerDone = DispatchSemaphore(value: 0)

    private init(depth: Int) {
        spareReady = DispatchSemaphore(value: depth)
        spares.withLock { $0.unmade = depth }
    }

    /// Runs `read` on a thread of its own, handing it chunks to fill and send, and folds what it
    /// sends with `fold` on this thread. Returns when both are done; rethrows the first error.
    ///
    /// `read` gets a first chunk and a `send` function that hands over a filled chunk and returns
    /// a fresh one, or nil when the folder has stopped; `read` returns the chunk it was filling
    /// (sent if not empty), or nil when `send` gave none.
    static func run(
        depth: Int = 4,
        read: @escaping @Sendable (_ first: ReplayChunk, _ send: (ReplayChunk) -> ReplayChunk?) throws -> ReplayChunk?,
        fold: (ReplayChunk) throws -> Void
    ) throws {
        let pipeline = ReplayPipeline(depth: depth)
        guard let first = pipeline.takeSpare() else { return }
        let thread = Thread {
            let result: (any Error)?
            do {
                if let last = try read(first, pipeline.send), !last.isEmpty { _ = pipeline.send(last) }
                result = nil
            } catch {
                result = error
            }
            pipeline.queue.withLock { $0.append(.end(result)) }
            pipeline.itemReady.signal()
            pipeline.readerDone.signal()
        }
        thread.name = "recordlog-replay-reader"
        thread.start()
        defer {
            pipeline.cancel()
            pipeline.readerDone.wait()
        }
        while true {
            pipeline.itemReady.wait()
            let item = pipeline.queue.withLock { $0.removeFirst() }
            switch item {
            case .chunk(let chunk):
                try fold(chunk)
                pipeline.giveBack(chunk)
            case .end(let error?):
                throw error
            case .end(nil):
                return
            }
        }
    }

    /// Hands `chunk` to the folder; returns an empty chunk to fill next, nil once cancelled.
    private func send(_ chunk: ReplayChunk) -> ReplayChunk? {
        queue.withLock { $0.append(.chunk(chunk)) }
        itemReady.signal()
        return takeSpare()
    }

    /// Waits for a chunk to fill: a given-back one, or a new one while fewer than `depth` exist.
    private func takeSpare() -> ReplayChunk? {
        spareReady.wait()
        if cancelled.load(ordering: .acquiring) { return nil }
        return spares.withLock { spares in
            if let chunk = spares.chunks.popLast() {
                chunk.reset()
                return chunk
            }
            spares.unmade -= 1
            return ReplayChunk()
        }
    }

    private func giveBack(_ chunk: ReplayChunk) {
        spares.withLock { $0.chunks.append(chunk) }
        spareReady.signal()
    }

    /// Stops the reader at its next hand-over (waking it if it waits for a chunk).
    private func cancel() {
        cancelled.store(true, ordering: .releasing)
        spareReady.signal()
    }
}
