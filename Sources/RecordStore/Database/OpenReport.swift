/// How opening a database rebuilt its current state.
public struct OpenReport: Sendable, Equatable {
    /// Zones whose state came from the key index checkpoint, replaying only the events after it.
    public var zonesFromSnapshot = 0
    /// Events read from the zones' logs to rebuild the state.
    public var replayedEvents = 0
}
