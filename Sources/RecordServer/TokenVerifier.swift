import Foundation
import Logging
import StorageKit

/// Checks bearer tokens against the root's token file, reading the file again whenever it
/// changes (its inode, size or modification time), so `create-database` and `rotate-token` take
/// effect on a running server from its next request.
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
    }

    private let root: String
    private let logger: Logger
    private let cache = LockedValue(Cache())

    init(root: String, logger: Logger) {
        self.root = root
        self.logger = logger
    }

    /// What `token` may do with `database`. Every database's digest is compared (in constant
    /// time each), whichever matches, so the time taken does not tell which one did.
    func access(token: String, database: String) -> Access {
        let digest = AccessToken.digest(of: token)
        var access = Access.unknownToken
        for (name, stored) in current().digests where AccessToken.constantTimeEquals(digest, stored) {
            access = name == database ? .granted : (access == .granted ? .granted : .otherDatabase)
        }
        return access
    }

    /// The token file as it is now; the last good one when it cannot be read (and a log line
    /// says why).
    private func current() -> TokenFile {
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
