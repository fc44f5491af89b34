#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StorageKit

/// A store's small files, durable points and writer, looked at without opening the log: what
/// `log-inspect verify` reports beside the segments, judged by the rules the writer's open
/// applies (the same functions).
package enum StoreCheck {
    /// The store's damaged small files — the marker, each zone's `zone.name` against its
    /// directory — as the errors the writer's open would throw for them.
    package static func metadataProblems(store: String) -> [LogError] {
        var problems: [LogError] = []
        let marker = FileSystem.join(store, StoreLayout.markerFile)
        do { try StoreLayout.checkMarker(marker) } catch let error as LogError { problems.append(error) } catch {}
        let zones = FileSystem.join(store, StoreLayout.zonesDirectory)
        for name in ((try? FileSystem.list(zones)) ?? []).sorted() where !name.hasPrefix(".") {
            let directory = FileSystem.join(zones, name)
            guard FileSystem.isDirectory(directory) else { continue }
            do { _ = try PartitionFiles.readZoneName(directory: directory) } catch let error as LogError { problems.append(error) } catch {}
        }
        return problems
    }

    /// The partition's durable point: every offset below it was made durable and acknowledged
    /// (the larger of its recovery point and its durable-end mark). Read it before the segments.
    package static func durableOffset(store: String, partitionDirectory: String) -> Int64 {
        let name = String(partitionDirectory.split(separator: "/").last ?? "")
        let recoveryPoint = RecoveryCheckpoint.read(directory: store)?[name] ?? 0
        return max(recoveryPoint, DurableEnd.read(partitionDirectory: partitionDirectory)?.nextOffset ?? 0)
    }

    /// Whether a writer holds the store's write lock now, read from `/proc/locks` without
    /// touching the lock (taking it, even for a moment, could refuse a writer's open). Nil where
    /// that cannot be told.
    package static func writerIsLive(store: String) -> Bool? {
        var info = stat()
        guard stat(FileSystem.join(store, StoreLock.fileName), &info) == 0 else { return false }
        guard let bytes = try? FileSystem.readToEnd("/proc/locks") else { return nil }
        // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF": device major:minor (hex) and inode.
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK" else { continue }
            let file = fields[5].split(separator: ":")
            if file.count == 3, UInt64(file[0], radix: 16) == major, UInt64(file[1], radix: 16) == minor,
                UInt64(file[2]) == UInt64(info.st_ino)
            {
                return true
            }
        }
        return false
    }
}
