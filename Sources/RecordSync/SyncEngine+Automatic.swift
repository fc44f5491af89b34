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
    /// connection dropped, the remote closed), listens again — fetching first, so nothing
    /// notified meanwhile is missed.
    private func listenToRemote() async {
        await keepListening("fetching the remote's changes") {
            try await remote.save(Subscription(id: remoteSubscriptionID, kind: .database))
            let notifications = try await remote.notifications(for: remoteSubscriptionID)
            try await fetchChanges()
            for await _ in notifications {
                if Task.isCancelled { return true }
                try await fetchChanges()
            }
            return false
        }
    }

    /// Sends on start and after every local commit, until the local database closes.
    private func listenToLocal() async {
        await keepListening("sending local changes") {
            try await local.save(Subscription(id: Self.localSubscriptionID, kind: .database))
            let notifications = try local.notifications(for: Self.localSubscriptionID)
            try await sendChanges()
            for await _ in notifications {
                if Task.isCancelled { return true }
                try await sendChanges()
            }
            return true
        }
    }

    /// Runs `listen` until it says it is done or the task is cancelled; after a failure or an
    /// ended stream, waits a little longer each time (50 ms doubling, at most 30 s) and runs it
    /// again.
    private func keepListening(_ what: String, _ listen: () async throws -> Bool) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                if try await listen() { return }
                failures = 0
            } catch {
                if Task.isCancelled { return }
                emit(.failed("\(what): \(error)"))
                configuration.logger.warning("\(what) failed; retrying", metadata: ["error": "\(error)"])
                failures += 1
            }
            try? await Task.sleep(for: .milliseconds(min(30_000, 50 << min(failures, 10))))
        }
    }
}
