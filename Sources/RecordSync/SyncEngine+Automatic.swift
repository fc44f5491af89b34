import Foundation
import RecordStore

extension SyncEngine {
    /// The ID of the remote database subscription this device listens to.
    nonisolated var remoteSubscriptionID: String {
        "recordsync." + deviceIdentity.map { String(format: "%02x", $0) }.joined()
    }

    /// The ID of the local subscription that tells the engine about local commits.
    static let localSubscriptionID = "recordsync.outbox"

    /// Starts the automatic mode: a fetch and a send now, a fetch on every remote notification
    /// (reconnecting, then fetching, whenever the remote's stream ends), and a send after local
    /// commits.
    func startAutomaticSync() {
        guard automaticTasks.isEmpty else { return }
        automaticTasks.append(Task { await self.listenToRemote() })
        automaticTasks.append(Task { await self.listenToLocal() })
    }

    /// Fetches on start and on every notification of the remote; when the stream ends (the
    /// connection dropped, the remote closed), waits a little longer each time and listens again
    /// — fetching first, so nothing notified meanwhile is missed.
    private func listenToRemote() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await remote.save(Subscription(id: remoteSubscriptionID, kind: .database))
                let notifications = try await remote.notifications(for: remoteSubscriptionID)
                try await fetchChanges()
                failures = 0
                for await _ in notifications {
                    if Task.isCancelled { return }
                    try await fetchChanges()
                }
            } catch {
                if Task.isCancelled { return }
                emit(.failed("\(error)"))
                configuration.logger.warning("sync with the remote failed; retrying", metadata: ["error": "\(error)"])
            }
            failures += 1
            try? await Task.sleep(for: .milliseconds(min(30_000, 50 << min(failures, 10))))
        }
    }

    /// Sends on start and after every local commit to a synced zone.
    private func listenToLocal() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await local.save(Subscription(id: Self.localSubscriptionID, kind: .database))
                let notifications = try local.notifications(for: Self.localSubscriptionID)
                try await sendChanges()
                failures = 0
                for await _ in notifications {
                    if Task.isCancelled { return }
                    try await sendChanges()
                }
                return  // the local database closed
            } catch {
                if Task.isCancelled { return }
                emit(.failed("\(error)"))
                configuration.logger.warning("sending local changes failed; retrying", metadata: ["error": "\(error)"])
            }
            failures += 1
            try? await Task.sleep(for: .milliseconds(min(30_000, 50 << min(failures, 10))))
        }
    }
}
