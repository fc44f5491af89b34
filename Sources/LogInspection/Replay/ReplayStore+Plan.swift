import RecordLog

extension ReplayStore {
    /// Where a replay of `zone` (every zone when nil) stops at `point`.
    ///
    /// - `.offset(N)` with a zone: N must lie in the zone's `startOffset...endOffset`. Without a
    ///   zone, N applies to every zone, and a zone whose log ends before N is taken whole; N must
    ///   not pass every zone's end.
    /// - `.time(T)`: a zone the system partition says did not exist yet at T is left out (or, when
    ///   named, replayed as empty, with a warning).
    ///
    /// - Throws: `unknownZone`, `negativeOffset`, `offsetBeforeStart`, `offsetBeyondEnd`,
    ///   `offsetBeyondEveryZone`, `unreadable`.
    public func plan(zone: String?, at point: ReplayPoint) throws(ReplayError) -> ReplayPlan {
        var cuts: [ZoneCut] = []
        var warnings: [String] = []
        switch point {
        case .offset(let offset):
            guard offset >= 0 else { throw ReplayError.negativeOffset(offset) }
            if let zone {
                let partition = try partition(zone)
                try check(offset, in: partition)
                cuts = [cut(partition, at: offset)]
            } else {
                let partitions = try zones.map { zone throws(ReplayError) in try partition(zone) }
                let largest = partitions.map(\.endOffset).max() ?? 0
                guard offset <= largest else { throw ReplayError.offsetBeyondEveryZone(offset: offset, largestEnd: largest) }
                cuts = partitions.map { cut($0, at: min(max(offset, $0.startOffset), $0.endOffset)) }
            }
        case .time(let time):
            (cuts, warnings) = try timeCuts(zone: zone, at: time)
        }
        for cut in cuts {
            if let commit = try commit(splitAt: cut.end, in: try partition(cut.zone)) {
                warnings.append(
                    "zone \(cut.zone): the point falls inside the commit of offsets \(commit.lowerBound)…\(commit.upperBound), "
                        + "so this state never existed as a whole (the store applies commits whole)")
            }
        }
        return ReplayPlan(cuts: cuts, warnings: warnings)
    }

    /// The zones live at `time` and their cuts.
    private func timeCuts(zone: String?, at time: Int64) throws(ReplayError) -> ([ZoneCut], [String]) {
        let lifetimes = try system.map { system throws(ReplayError) in
            let cut = try offset(after: time, in: system)
            return try reading(Self.systemZone) { try ZoneLifetimes(system: system, cut: cut) }
        }
        var cuts: [ZoneCut] = []
        var warnings: [String] = []
        let present = Set(zones)
        for name in (lifetimes?.liveAtPoint.keys.sorted() ?? []) where zone == nil && !present.contains(name) {
            warnings.append(
                "zone \(name) existed at \(ReplayDate.iso8601(time)) but was deleted since; its records are no longer in the log")
        }
        for name in zone.map({ [$0] }) ?? zones {
            let partition = try partition(name)
            if let lifetimes {
                guard let incarnation = lifetimes.liveAtPoint[name] else {
                    if zone != nil {
                        warnings.append("zone \(name) did not exist at \(ReplayDate.iso8601(time))")
                        cuts.append(cut(partition, at: partition.startOffset))
                    }
                    continue
                }
                if let now = lifetimes.liveNow[name], now != incarnation {
                    warnings.append(
                        "zone \(name) was deleted and created again after \(ReplayDate.iso8601(time)); "
                            + "the records it held then are no longer in the log")
                }
            }
            cuts.append(cut(partition, at: try offset(after: time, in: partition)))
        }
        return (cuts, warnings)
    }

    /// Checks that `offset` is a point of `partition`'s log.
    func check(_ offset: Int64, in partition: Partition) throws(ReplayError) {
        guard offset >= 0 else { throw ReplayError.negativeOffset(offset) }
        guard offset >= partition.startOffset else {
            throw ReplayError.offsetBeforeStart(zone: partition.name, offset: offset, start: partition.startOffset)
        }
        guard offset <= partition.endOffset else {
            throw ReplayError.offsetBeyondEnd(zone: partition.name, offset: offset, end: partition.endOffset)
        }
    }

    /// The whole log of `partition`, or up to `end`.
    func cut(_ partition: Partition, at end: Int64? = nil) -> ZoneCut {
        ZoneCut(zone: partition.name, start: partition.startOffset, end: end ?? partition.endOffset, logEnd: partition.endOffset)
    }
}
