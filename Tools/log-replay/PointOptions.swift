import ArgumentParser
import LogInspection

/// `--to-offset N` or `--at TIME`, exactly one.
struct PointOptions: ParsableArguments {
    @Option(
        name: .customLong("to-offset"),
        help: ArgumentHelp("Replay the events with offset < N (exclusive); N = the zone's end offset is its whole log.", valueName: "N"))
    var toOffset: Int64?

    @Option(
        help: ArgumentHelp("Replay the events stamped at or before TIME (inclusive): \(TimeArgument.forms).", valueName: "TIME"),
        transform: { try TimeArgument($0) })
    var at: TimeArgument?

    func validate() throws {
        guard (toOffset == nil) != (at == nil) else { throw ValidationError("Give exactly one point: --to-offset N or --at TIME.") }
    }

    /// The point as the library takes it.
    func point() -> ReplayPoint {
        if let at { return .time(at.milliseconds) }
        // validate() made sure that --to-offset is given when --at is not.
        return .offset(toOffset ?? 0)
    }

    /// The point of the whole store: `--to-offset` needs `zone`.
    func storePoint(zone: String?) throws -> StorePoint {
        switch point() {
        case .offset(let offset):
            guard let zone else { throw ValidationError("--to-offset needs --zone: offsets are per zone.") }
            return .zoneOffset(zone: zone, offset: offset)
        case .time(let time):
            return .time(time)
        }
    }
}
