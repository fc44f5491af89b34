import Foundation
import Notes
import RecordStore
import Testing

/// The `NotesManager` implementations the contract suite runs against.
enum ManagerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case record
    /// A `RecordNotesManager` over `Database.inMemory()`: the record store with no files.
    case recordInMemory

    var testDescription: String { rawValue }
}

/// Undoes what `makeManager` made (closes and deletes a temporary store).
typealias ManagerCleanup = @Sendable () throws -> Void

/// A fresh, empty manager of `kind`, and what removes it.
func makeManager(_ kind: ManagerKind) async throws -> (manager: any NotesManager, cleanup: ManagerCleanup) {
    switch kind {
    case .inMemory:
        return (InMemoryNotesManager(), {})
    case .record:
        let database = try await Database.temporary()
        do {
            let manager = try await RecordNotesManager(database: database)
            return (manager, { try database.removeTemporaryDirectory() })
        } catch {
            try? database.removeTemporaryDirectory()
            throw error
        }
    case .recordInMemory:
        let database = try await Database.inMemory()
        return (try await RecordNotesManager(database: database), { try database.close() })
    }
}

/// Runs `body` with a fresh manager of `kind`, and removes the manager after, whatever happens.
func withManager(_ kind: ManagerKind, _ body: (any NotesManager) async throws -> Void) async throws {
    let (manager, cleanup) = try await makeManager(kind)
    do {
        try await body(manager)
    } catch {
        try? cleanup()
        throw error
    }
    try cleanup()
}
