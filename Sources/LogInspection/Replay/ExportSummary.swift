/// What `export` wrote: the cut of every partition it copied, the system partition included.
public struct ExportSummary: Sendable, Hashable {
    /// The new store's directory.
    public var directory: String
    /// One cut per partition copied: the system partition first, then the zones by name.
    public var cuts: [ZoneCut]
    /// Facts about the point (inside a commit, lost incarnations), one sentence each.
    public var warnings: [String]
}
