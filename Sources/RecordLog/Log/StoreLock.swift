#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StorageKit

/// The store's write lock: an exclusive `flock` on `<store>/.lock`, held while the log is open.
///
/// flock locks belong to an open file description, so a second open — from another process or
/// from this one — is refused while the first holds it, and the kernel releases it when the
/// holder exits, even by `kill -9`.
final class StoreLock: Sendable {
    static let fileName = ".lock"
    let file: OpenFile

    init(directory: String) throws {
        let path = FileSystem.join(directory, Self.fileName)
        file = try OpenFile(path: path, writable: true, create: true)
        while flock(file.descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { throw LogError.locked(path: directory) }
            throw LogError.io(operation: "flock", path: path, errno: errno)
        }
    }

    /// Releases the lock now, before the last reference goes away (on `Log.close()`).
    func release() {
        _ = flock(file.descriptor, LOCK_UN)
    }
}
