import Foundation
import Logging
import RecordPostgres
import StorageKit

/// Checks bearer tokens against the database's token digests: the root's token file, read
/// again whenever it changes (its inode, size or modification time), so `create-database` and
/// `rotate-token` take effect on a running server from its next request; or, on PostgreSQL,
/// the cluster's `recordlog_tokens` rows, read again once a second and whenever a token matches
/// none of the rows read (at most ten times a second), so a database created on any node is
/// served at once, and a rotated token is refused within a second on every node.
final class TokenVerifier: Sendable {
    /// What a token may do with the database a request names.
    enum Access: Equatable {
        /// It is that database's token.
        case granted
        /// It is another database's token: authenticated, not authorized (403).
        case otherDatabase
        /// It is no database's token, or no longer is (401).
        case unknownToken
    }

    private struct FileStamp: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    private struct Cache {
        var stamp: FileStamp?
        var file = TokenFile()
        /// When the rows were read (PostgreSQL).
        var readAt: ContinuousClock.Instant?
    }

    private let storage: DatabaseStorage
    private let logger: Logger
    private let cache = LockedValue(Cache())

    init(storage: DatabaseStorage, logger: Logger) {
        self.storage = storage
        self.logger = logger
    }

    /// What `token` may do with `database`. Every database's digest is compared (in constant
    /// time each), whichever matches, so the time taken does not tell which one did.
    func access(token: String, database: String) async -> Access {
        let digest = AccessToken.digest(of: token)
        let access = Self.access(digest, database: database, in: await current(maximumAge: .seconds(1)))
        guard access == .unknownToken, case .postgres = storage else { return access }
        // Perhaps created (or rotated) on another node since the last read.
        return Self.access(digest, database: database, in: await current(maximumAge: .milliseconds(100)))
    }

    private static func access(_ digest: [UInt8], database: String, in file: TokenFile) -> Access {
        var access = Access.unknownToken
        for (name, stored) in file.digests where AccessToken.constantTimeEquals(digest, stored) {
            access = name == database ? .granted : (access == .granted ? .granted : .otherDatabase)
        }
        return access
    }

    /// The digests as they are now; the last good ones when they cannot be read (and a log
    /// line says why).
    private func current(maximumAge: Duration) async -> TokenFile {
        switch storage {
        case .files(let root):
            return currentFile(root: root.path)
        case .postgres(let cluster, _):
            let now = ContinuousClock.now
            if let file = cache.withLock({ cache in cache.readAt.map { now - $0 < maximumAge } == true ? cache.file : nil }) { return file }
            do {
                let file = TokenFile(digests: try await cluster.digests())
                cache.withLock { $0 = Cache(file: file, readAt: now) }
                return file
            } catch {
                logger.error("cannot read the tokens from PostgreSQL; keeping the tokens read before", metadata: ["error": "\(error)"])
                return cache.withLock { $0.file }
            }
        }
    }

    private func currentFile(root: String) -> TokenFile {
        let stamp = Self.stamp(of: FileSystem.join(root, TokenFile.fileName))
        if let file = cache.withLock({ $0.stamp == stamp && stamp != nil ? $0.file : nil }) { return file }
        do {
            let file = try TokenFile.read(root: root)
            cache.withLock { $0 = Cache(stamp: stamp, file: file) }
            return file
        } catch {
            logger.error("cannot read the token file; keeping the tokens read before", metadata: ["error": "\(error)"])
            return cache.withLock { $0.file }
        }
    }

    private static func stamp(of path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(
            inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}
