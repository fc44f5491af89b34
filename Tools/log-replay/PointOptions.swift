import ArgumentParser
import LogInspection

/// `--to-offset N` or `--at TIME`, exactly one.
struct PointOptions: ParsableArguments {
    @Option(
        name: .customLong("to-offset"),
        help: ArgumentHelp("Replay the events with offset < N (exclusive); N = the zone's end offset is its whole log.", valueName: "N"))
    var toOffset: Int64?

    @Option(
        help: ArgumentHelp("Replay the events stamped at or before TIME (inclusive): ms since the epoch (1714564800000), ISO 8601 (2024-05-01T12:00:00.250Z, 2024-05-01T14:00:00+02:00) or `now`.", valueName: "TIME"))
    var at: String?

    func validate() throws {
        guard (toOffset == nil) != (at == nil) else { throw ValidationError("Give exactly one point: --to-offset N or --at TIME.") }
    }

    /// The point as the library takes it.
    func point() throws(ReplayError) -> ReplayPoint {
        if let toOffset { return .offset(toOffset) }
        return .time(try TimeArgument.parse(at ?? ""))
    }

    /// The point of the whole store: `--to-offset` needs `zone`.
    func storePoint(zone: String?) throws -> StorePoint {
        switch try point() {
        case .offset(let offset):
            guard let zone else { throw ValidationError("--to-offset needs --zone: offsets are per zone.") }
            return .zoneOffset(zone: zone, offset: offset)
        case .time(let time):
            return .time(time)
        }
    }
}
