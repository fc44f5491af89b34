/// How opening a database rebuilt its current state.
public struct OpenReport: Sendable, Equatable {
    /// Zones whose state came from the key index checkpoint, replaying only the events after it.
    public var zonesFromSnapshot = 0
    /// Events read from the zones' logs to rebuild the state.
    public var replayedEvents = 0
    /// Zones whose files are in the store but whose creation the system log does not show (a
    /// damaged or lost event): kept on disk untouched, not served. Empty in a sound store.
    public var unregisteredZones: [String] = []
}
