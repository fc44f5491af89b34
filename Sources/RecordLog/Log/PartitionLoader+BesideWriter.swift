#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StorageKit

// A reader's open of a partition beside its writer in another process, which may append, roll
// or compact — swap cleaned segments in (FORMAT.md §13.1) — while the reader looks.
extension PartitionLoader {
    /// A reader met files that moved under it: a segment whose name now belongs to another file
    /// (a cleaned segment renamed over it) after its index files were read by name.
    struct FilesMoved: Error {}

    /// How many looks in a row at an unchanged directory a reader takes before it believes the
    /// damage it meets: a writer may roll or append between its look at the mark and its scan.
    static let steadyLooks = 3
    /// How many looks in all, however busy the writer: a bound, not a timing.
    static let maximumLooks = 200

    /// Loads the partition as ``load(recoveryPoint:report:)`` does, looking again when what it
    /// meets may be the writer's work in progress rather than damage: a file listed a moment
    /// ago and gone (removed by a swap), a segment renamed over after its index was read,
    /// offsets that do not continue (a swap half done), invalid bytes (a roll after the mark
    /// was read). It looks again while the directory's names keep changing — every step of a
    /// swap changes them — and gives up on damage that three looks at an unchanged directory
    /// all meet. The cleaner checkpoint it returns is read after the segments.
    func loadBesideWriter(recoveryPoint: Int64?, report: inout RecoveryReport) throws -> Loaded {
        var steady = 0
        var looks = 0
        while true {
            let before = (try? FileSystem.list(directory).sorted()) ?? []
            do {
                var loaded = try load(recoveryPoint: recoveryPoint, report: &report)
                // `load` read the checkpoint before the segments; read it again after them: a
                // compaction rewrites it before its first swap, so its expiry offset covers every
                // delete the segments opened have lost. A drop sequence that changed between the
                // two reads says the segments may mix two compactions': held as unsettled (odd).
                let before = loaded.cleaner.dropSequence
                loaded.cleaner = try CleanerCheckpoint.read(directory: directory)
                if loaded.cleaner.dropSequence != before { loaded.cleaner.dropSequence |= 1 }
                return loaded
            } catch let error where Self.mayBeTheWritersMove(error) {
                looks += 1
                let after = (try? FileSystem.list(directory).sorted()) ?? []
                steady = after == before ? steady + 1 : 0
                guard steady < Self.steadyLooks, looks < Self.maximumLooks else {
                    if error is FilesMoved {
                        throw LogError.corruptBatch(
                            file: directory, position: 0, offset: 0,
                            reason: "its segments kept moving under the reader for \(looks) looks; open it again")
                    }
                    throw error
                }
            }
        }
    }

    /// Whether `error` may come from a writer changing the files while a reader looks.
    static func mayBeTheWritersMove(_ error: any Error) -> Bool {
        switch error {
        case is FilesMoved: return true
        case LogError.corruptBatch: return true
        case StorageError.io(_, _, let code), LogError.io(_, _, let code): return code == ENOENT
        default: return false
        }
    }
}
