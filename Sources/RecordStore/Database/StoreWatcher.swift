import Dispatch
import Logging
import StorageKit

/// A read-only database's watch on the store's writer in another process: every `interval` it
/// looks whether the writer has made new commits durable (or created or deleted a zone) and, when
/// it has, runs the database's ``Database/refresh()`` — which applies the commits and delivers
/// them to the views and subscriptions — so that an app watching a store sees another process's
/// changes without reading or calling `refresh()` itself.
///
/// Why a poll of the durable-end marks, not inotify: the writer publishes a mark by a store into
/// a shared mapping of the file (FORMAT.md §6.1), which raises no inotify event at all; and the
/// segment's own `IN_MODIFY` comes from the `pwrite`, before the batch is durable, when a reader
/// must not see it yet — it would only say "look again soon". The look costs a 1 KiB read of each
/// zone's mark and one listing of the zones directory (a few microseconds), on a timer of a
/// serial dispatch queue, never on the cooperative pool; only a look that finds something starts
/// a refresh, as a task, one at a time.
final class StoreWatcher: Sendable {
    private let queue = DispatchQueue(label: "RecordStore.StoreWatcher")
    private let timer: LockedValue<(any DispatchSourceTimer)?> = LockedValue(nil)
    /// Whether a refresh the watcher started is still running: the next look waits for it.
    private let refreshing = LockedValue(false)
    /// The last refresh failure logged, so that a lasting one is logged once, not every interval.
    private let lastFailure = LockedValue<String?>(nil)
    private let interval: Duration
    private let logger: Logger

    init(interval: Duration, logger: Logger) {
        self.interval = interval
        self.logger = logger
    }

    /// Starts watching for `database`, which the watcher does not keep alive.
    func start(_ database: Database) {
        let source = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = max(1, Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000))
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds), leeway: .nanoseconds(nanoseconds / 10))
        source.setEventHandler { [weak self, weak database] in
            guard let self, let database else { return }
            self.look(database)
        }
        timer.withLock { $0 = source }
        source.resume()
    }

    /// Stops the timer; a refresh already started finishes (or fails on the closed database).
    func stop() {
        let source = timer.withLock { timer in
            defer { timer = nil }
            return timer
        }
        source?.cancel()
    }

    deinit { stop() }

    private func look(_ database: Database) {
        guard !refreshing.withLock({ $0 }), database.log.hasNewDurableData() else { return }
        refreshing.withLock { $0 = true }
        Task { [self] in
            defer { refreshing.withLock { $0 = false } }
            do {
                try await database.refresh()
                lastFailure.withLock { $0 = nil }
            } catch {
                guard !database.isClosed else { return }
                let text = "\(error)"
                let isNew = lastFailure.withLock { last in
                    defer { last = text }
                    return last != text
                }
                if isNew { logger.warning("could not catch up with the store's writer; will look again", metadata: ["error": "\(text)"]) }
            }
        }
    }
}
