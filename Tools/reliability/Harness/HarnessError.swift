/// What the reliability harness found wrong, or could not do.
package enum HarnessError: Error, CustomStringConvertible {
    /// The store holds a record the workload never wrote.
    case unexpectedRecord(String)
    /// After a crash or a power cut the store matches neither the acknowledged prefix nor that
    /// prefix plus the commit in flight.
    case stateMismatch(acknowledged: Int, difference: String)
    /// `verify` did not find the store clean after a writing open.
    case notClean(String)
    /// The child process did not behave as the protocol says.
    case child(String)
    /// A check failed after a simulated power loss, which threw these unsynced changes away.
    case afterPowerLoss(String, lost: [String])
    /// In the `notes` kill sweep, a reader saw part of a commit or a commit that was not durable,
    /// or an acknowledged commit was lost.
    case notesSweep(round: Int, String)
    /// The corruption sweep could not flip a byte or put the store back after a flip.
    case corruptionSweep(String)
    /// A registered view (``ItemsView``) holds something other than what the log holds.
    case viewMismatch(String)

    package var description: String {
        switch self {
        case .unexpectedRecord(let what): "unexpected record: \(what)"
        case .stateMismatch(let acknowledged, let difference):
            "the store matches neither the \(acknowledged) acknowledged steps nor one more: \(difference)"
        case .notClean(let report): "verify after a writing open: \(report)"
        case .child(let what): "child process: \(what)"
        case .notesSweep(let round, let what): "notes kill sweep, round \(round): \(what)"
        case .corruptionSweep(let what): "corruption sweep: \(what)"
        case .viewMismatch(let difference): "the view differs from the log: \(difference)"
        case .afterPowerLoss(let what, let lost):
            "\(what); the power cut lost: \(lost.isEmpty ? "nothing" : lost.joined(separator: "; "))"
        }
    }
}
