extension ReplayStore {
    /// Called during a bisect with the replay being made (1 for the first), the most a search
    /// of this range makes, and that replay's progress.
    public typealias BisectProgressHandler = (_ replay: Int, _ replays: Int, _ done: Int64, _ total: Int64) -> Void

    /// Finds the first offset of `zone` whose event breaks `invariant`, by binary search over
    /// replays: the state at `from` (default the zone's start) must be good and the state at
    /// `to` (default its end offset) bad; then about log2(to − from) more replays find the
    /// offset N whose `state(at: .offset(N))` is good and `state(at: .offset(N + 1))` bad.
    ///
    /// ```swift
    /// let outcome = try await store.bisect(zone: "Notes") { state in state.records.count < 10 }
    /// if case .found(let result) = outcome { print(result.firstBadOffset, result.event?.text() ?? "") }
    /// ```
    ///
    /// The invariant is assumed to depend on the state alone; with one that does not (a flaky
    /// check), the offset found is one where it changed, not necessarily the first.
    ///
    /// - Throws: `unknownZone`, the offset errors of `plan(zone:at:)`, `reversedRange`, and
    ///   what `invariant` throws.
    public func bisect(
        zone: String, from: Int64? = nil, to: Int64? = nil, progress: BisectProgressHandler? = nil,
        invariant: (ReplayState) async throws(ReplayError) -> Bool
    ) async throws(ReplayError) -> BisectOutcome {
        let partition = try partition(zone)
        let low = from ?? partition.startOffset, high = to ?? partition.endOffset
        try check(low, in: partition)
        try check(high, in: partition)
        guard low < high else {
            if low > high { throw ReplayError.reversedRange(from: low, to: high) }
            return .notBracketed(reason: "--from and --to are both \(low): there is no event between them to blame", replays: 0)
        }
        let most = 2 + Self.ceilingLog2(high - low)
        var replays = 0
        func isGood(_ offset: Int64) async throws(ReplayError) -> Bool {
            replays += 1
            let replay = replays
            let state = try state(zone: zone, at: .offset(offset), progress: progress.map { report in { report(replay, most, $0, $1) } })
            return try await invariant(state)
        }
        guard try await isGood(low) else {
            return .notBracketed(
                reason: "the state at offset \(low) (--from) already breaks the invariant; give an earlier --from", replays: replays)
        }
        guard try await !isGood(high) else {
            return .notBracketed(
                reason: "the state at offset \(high) (--to) satisfies the invariant; nothing in \(low)..<\(high) breaks it",
                replays: replays)
        }
        var good = low, bad = high
        while bad - good > 1 {
            let middle = good + (bad - good) / 2
            if try await isGood(middle) { good = middle } else { bad = middle }
        }
        let diff = try diff(zone: zone, from: good, to: good + 1)
        let record = try reading(zone) { () throws -> InspectedRecord? in
            var found: InspectedRecord?
            try partition.forEachRecord(from: good, to: good + 1) { record in
                if record.offset == good { found = InspectedRecord(zone: zone, record: record) }
                return false
            }
            return found
        }
        return .found(BisectResult(zone: zone, firstBadOffset: good, event: record, diff: diff, replays: replays))
    }

    /// ⌈log2 n⌉ for n ≥ 1.
    static func ceilingLog2(_ n: Int64) -> Int {
        n <= 1 ? 0 : Int64.bitWidth - (n - 1).leadingZeroBitCount
    }
}
