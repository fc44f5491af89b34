import RecordLog
import RecordStore

/// A store opened read-only for replay: no lock taken, nothing written, so it can be read while
/// its app runs.
///
/// ```swift
/// let store = try ReplayStore(directory: "/path/to/store")
/// let state = try store.state(zone: "Notes", at: .offset(42))
/// ```
public final class ReplayStore: Sendable {
    /// The name of the record store's system partition (store identity, zones, subscriptions).
    public static let systemZone = StoredEvent.systemPartition

    /// The log, opened with `LogOptions(readOnly: true)`.
    public let log: Log

    /// Opens the store at `directory` read-only.
    ///
    /// - Throws: `ReplayError.cannotOpen` for a missing directory, one that is not a store, or a
    ///   log damaged mid-way (see `log-inspect verify`).
    public init(directory: String) throws(ReplayError) {
        do {
            log = try Log(directory: directory, options: LogOptions(readOnly: true))
        } catch let error as LogError {
            throw ReplayError.cannotOpen(path: directory, reason: error.description)
        } catch {
            throw ReplayError.cannotOpen(path: directory, reason: "\(error)")
        }
    }

    /// The zones that hold records (every partition but the system one), sorted.
    public var zones: [String] {
        log.partitionNames.filter { $0 != Self.systemZone }
    }

    /// The system partition, when this is a record store (a bare log has none).
    public var system: Partition? {
        try? log.partition(named: Self.systemZone)
    }

    /// A record zone's partition.
    ///
    /// - Throws: `ReplayError.unknownZone`.
    public func partition(_ zone: String) throws(ReplayError) -> Partition {
        guard zone != Self.systemZone, let partition = try? log.partition(named: zone) else {
            throw ReplayError.unknownZone(zone, available: zones)
        }
        return partition
    }

    /// Closes the files.
    public func close() {
        try? log.close()
    }
}
