extension ReplayError: CustomStringConvertible {
    /// The message for the user: what is wrong and what to give instead.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open the store at \(path): \(reason)"
        case .unknownZone(let zone, let available):
            let list = available.isEmpty ? "it has none" : "its zones: " + available.joined(separator: ", ")
            return "no zone named \(zone.debugDescription) in this store (\(list))"
        case .unknownRecord(let zone, let name):
            return "no event of zone \(zone.debugDescription) has the record name \(name.debugDescription); "
                + "list the live ones with `log-replay state STORE --zone \(zone) --at now`"
        case .offsetBeyondEnd(let zone, let offset, let end):
            return "offset \(offset) is beyond the end of zone \(zone.debugDescription), whose end offset "
                + "(the next to be written) is \(end); use 0…\(end)"
        case .offsetBeyondEveryZone(let offset, let largest):
            return "offset \(offset) is beyond the end of every zone (the largest end offset is \(largest)); "
                + "name a zone with --zone, or use 0…\(largest)"
        case .negativeOffset(let offset):
            return "offset \(offset) is negative; offsets start at 0"
        case .offsetBeforeStart(let zone, let offset, let start):
            return "offset \(offset) is before the start of zone \(zone.debugDescription), which begins at \(start)"
        case .reversedRange(let from, let to):
            return "--from \(from) is after --to \(to); give the earlier point first"
        case .outputExists(let path):
            return "\(path) exists and is not an empty directory; give a new path for the exported store"
        case .beforeStoreCreation(let time, let first):
            return "\(ReplayDate.iso8601(time)) is before the store's first event (\(ReplayDate.iso8601(first))): "
                + "there was no store to export yet"
        case .zoneNotFromZero(let zone, let start):
            return "zone \(zone.debugDescription) starts at offset \(start), so a fresh store cannot hold its "
                + "events at the same offsets"
        case .writeFailed(let path, let reason):
            return "cannot write the exported store at \(path): \(reason)"
        case .exportOffsetMismatch(let zone, let expected, let got):
            return "the exported zone \(zone.debugDescription) gave offset \(got) to the event at \(expected); "
                + "the export is unusable"
        case .notNotesZone(let zone):
            return "the notes views read the \"Notes\" zone only, not \(zone.debugDescription); use `state` for other zones"
        case .unreadable(let zone, let reason):
            return "cannot read zone \(zone.debugDescription): \(reason); check the store with `log-inspect verify`"
        case .undecodableEvent(let zone, let offset, let reason):
            return "the save at offset \(offset) of zone \(zone.debugDescription) does not decode as a record: "
                + "\(reason); check it with `log-inspect dump --zone \(zone) --from \(offset) --to \(offset + 1)`"
        case .invariantFailedToRun(let command, let reason):
            return "cannot run the invariant \(command.debugDescription) with /bin/sh: \(reason)"
        }
    }
}
