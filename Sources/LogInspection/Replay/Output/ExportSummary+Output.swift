extension ExportSummary {
    /// `exported DIR` then a line per partition: `zone  n of m events (offsets 0..<n)`.
    public var text: String {
        let width = cuts.map(\.zone.count).max() ?? 0
        let lines = cuts.map { cut in
            let name = cut.zone.padding(toLength: width, withPad: " ", startingAt: 0)
            let whole = cut.end == cut.logEnd ? ", whole" : ""
            return "  \(name)  \(cut.eventCount) of \(cut.logEnd - cut.start) events (offsets \(cut.start)..<\(cut.end)\(whole))"
        }
        return (["exported \(directory)"] + lines).joined(separator: "\n")
    }
}
