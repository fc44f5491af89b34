import Foundation
import Notes
import RecordStore
import RecordSync

extension NotesApp {
    /// The most changes one page of a sync's fetch holds (each page is one local commit): 2,000
    /// notes are about 1.3 MB of JSON. Measured on a first sync of 100,000 notes through a
    /// server on loopback: pages of 200 took 3.2 s, of 2,000 1.8 s, of 5,000 1.7 s.
    static let syncPageSize = 2_000

    /// Syncs the notes store with `remote` (another store directory, or a server): fetches its
    /// changes, sends this store's pending ones, and fetches again so that merges made on the
    /// way are here too. Returns a line saying what moved.
    ///
    /// - Throws: `NotesAppError.notSyncable` for a manager not over a store; the remote's and
    ///   the store's errors (an unauthorized remote changes nothing locally: nothing is written
    ///   before the remote's first answer).
    package func sync(with remote: any RemoteDatabase) async throws -> String {
        guard let manager = manager as? RecordNotesManager else { throw NotesAppError.notSyncable }
        let engine = SyncEngine(
            local: manager.database, remote: remote, configuration: .init(automaticallySync: false, resultsLimit: Self.syncPageSize))
        let events = engine.events()
        let counting = Task {
            var (sent, received, merged) = (0, 0, 0)
            for await event in events {
                switch event {
                case .sentChanges(_, _, let saved, let deleted, _): sent += saved.count + deleted.count
                case .fetchedZoneChanges(_, let saved, let deleted, _, _): received += saved.count + deleted.count
                case .conflictResolved: merged += 1
                default: break
                }
            }
            return (sent, received, merged)
        }
        do {
            try await engine.fetchChanges()
            try await engine.sendChanges()
            try await engine.fetchChanges()
        } catch {
            await engine.stop()
            counting.cancel()
            throw error
        }
        await engine.stop()
        let (sent, received, merged) = await counting.value
        let pending = try await engine.pendingChangeCount()
        var line = "synced: sent \(sent) change\(sent == 1 ? "" : "s"), received \(received)"
        if merged > 0 { line += ", merged \(merged) conflict\(merged == 1 ? "" : "s")" }
        if pending > 0 { line += "; \(pending) change\(pending == 1 ? "" : "s") still pending (refused by the remote: see the log)" }
        return line
    }
}
