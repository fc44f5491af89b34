import Foundation
import Logging
import RecordLog
import RecordPostgres
import RecordStore
import Testing

/// What a test database keeps its partitions in: the suites whose behaviour does not depend on
/// files run against each, so that ``Database/inMemory(maximumItemsPerRequest:logger:)`` and a
/// database on PostgreSQL keep the semantics of a store on disk. RecordStore's suites run their
/// database over each; RecordSync's, their remote.
package enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Segment files in a temporary directory.
    case files
    /// Memory only (`Database.inMemory()`).
    case memory
    /// Rows of PostgreSQL (`RECORDLOG_POSTGRES_URL`, which .ci/run sets), served through a
    /// mirror in a temporary directory, as a recordlog-server node of a cluster serves them.
    case postgres

    /// Every kind this run can open: PostgreSQL only when the tests have one (under CI they
    /// always do: RecordPostgresTests fails otherwise).
    package static var allCases: [StoreKind] { TestCluster.shared == nil ? [.files, .memory] : [.files, .memory, .postgres] }

    /// The kinds whose zones a test compacts with `Database.compact()`: not PostgreSQL's, whose
    /// rows only its cluster compacts (`recordlog-server compact-database`); `compact()` on a
    /// node's mirror says so.
    package static var compactable: [StoreKind] { [.files, .memory] }

    package var testDescription: String { rawValue }
}

/// The PostgreSQL the `.postgres` databases live in: one connection pool for the test process,
/// running until it exits; each database gets a name of its own.
package enum TestCluster {
    /// `RECORDLOG_POSTGRES_URL`: nil when the tests have no PostgreSQL.
    package static let url = ProcessInfo.processInfo.environment["RECORDLOG_POSTGRES_URL"]

    package static let shared: PostgresCluster? = {
        guard let url, let cluster = try? PostgresCluster(url: url, connections: 30) else { return nil }
        Task.detached { await cluster.run() }
        return cluster
    }()

    /// The tables, created once.
    package static let prepared = Task { try await shared?.prepare() }

    /// A database name no other test of any run uses: `prefix` and a random suffix.
    package static func uniqueName(_ prefix: String = "test") -> String {
        "\(prefix)-\(UUID().uuidString.lowercased())"
    }
}

/// A new database of `kind`: in a fresh temporary directory, in memory, or on PostgreSQL under a
/// name of its own (its mirror in a fresh temporary directory). The caller closes it and removes
/// its directory with `removeTemporaryDirectory()` (PostgreSQL's rows stay, under a name no
/// other test uses).
package func openTemporaryDatabase(
    _ kind: StoreKind, durability: LogOptions.Durability = .noSyncUnsafe, maximumItemsPerRequest: Int? = nil
) async throws -> Database {
    let items = maximumItemsPerRequest ?? Database.defaultMaximumItemsPerRequest
    switch kind {
    case .files:
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("RecordStore-\(UUID().uuidString)").path
        return try await Database(directory: path, durability: durability, maximumItemsPerRequest: items)
    case .memory:
        return try await Database.inMemory(maximumItemsPerRequest: items)
    case .postgres:
        guard let cluster = TestCluster.shared else { throw LogError.sharedLogUnavailable(reason: "RECORDLOG_POSTGRES_URL is not set") }
        try await TestCluster.prepared.value
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("RecordStore-pg-\(UUID().uuidString)").path
        return try await Database(
            directory: path,
            sharedLog: try await PostgresMirrorLog.open(directory: path, remote: cluster.log(of: TestCluster.uniqueName()), logger: Logger(label: "test")),
            maximumItemsPerRequest: items, refreshInterval: nil, logger: Logger(label: "test"))
    }
}
