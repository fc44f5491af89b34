import Foundation
import RecordStore
import StorageKit

/// A server's root directory: one store directory per database under `databases/`, and the
/// `tokens` file holding each database's token digest. What `recordlog-server create-database`,
/// `rotate-token` and `list-databases` change and read; the server reads the token file again
/// whenever it changes, so a token rotated while it runs is refused from the next request on.
///
/// ```swift
/// let root = DatabaseRoot(path: "/srv/recordlog")
/// let token = try await root.createDatabase("notes")   // give this to the database's devices
/// ```
public struct DatabaseRoot: Sendable {
    /// The root directory.
    public let path: String

    /// A root at `path` (created by the first ``createDatabase(_:)``).
    public init(path: String) { self.path = path }

    /// The store directory of a database.
    public func storeDirectory(of name: String) -> String {
        FileSystem.join(FileSystem.join(path, "databases"), name)
    }

    /// Creates a database: its store directory (an empty store) and a token, whose digest is
    /// written to the token file.
    ///
    /// - Returns: the new token; it is stored nowhere, so show it to the operator once.
    /// - Throws: ``ServerSetupError/invalidDatabaseName(_:)``, ``ServerSetupError/databaseExists(_:)``,
    ///   or the store's or file system's error.
    public func createDatabase(_ name: String) async throws -> String {
        guard DatabaseName.isValid(name) else { throw ServerSetupError.invalidDatabaseName(name) }
        try FileManager.default.createDirectory(atPath: FileSystem.join(path, "databases"), withIntermediateDirectories: true)
        let token = AccessToken.generate()
        try withTokenFileLock {
            var file = try TokenFile.read(root: path)
            guard file.digests[name] == nil else { throw ServerSetupError.databaseExists(name) }
            file.digests[name] = AccessToken.digest(of: token)
            try file.write(root: path)
        }
        // Opening creates the store, so that read-only tools can look at it before any write.
        let database = try await Database(directory: storeDirectory(of: name), lockTimeout: .seconds(2))
        try database.close()
        return token
    }

    /// Replaces a database's token with a new one; the old one is refused from then on (by a
    /// running server too, from its next request).
    ///
    /// - Returns: the new token.
    /// - Throws: ``ServerSetupError/unknownDatabase(_:)``.
    public func rotateToken(_ name: String) throws -> String {
        let token = AccessToken.generate()
        try withTokenFileLock {
            var file = try TokenFile.read(root: path)
            guard file.digests[name] != nil else { throw ServerSetupError.unknownDatabase(name) }
            file.digests[name] = AccessToken.digest(of: token)
            try file.write(root: path)
        }
        return token
    }

    /// The databases of the root, sorted by name.
    public func listDatabases() throws -> [String] {
        try TokenFile.read(root: path).digests.keys.sorted()
    }

    /// Runs `body` holding an exclusive lock on `tokens.lock`, so that two administration
    /// commands run at once do not lose each other's change.
    private func withTokenFileLock<T>(_ body: () throws -> T) throws -> T {
        let lockPath = FileSystem.join(path, "tokens.lock")
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StorageError.io(operation: "open", path: lockPath, errno: errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StorageError.io(operation: "flock", path: lockPath, errno: errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
