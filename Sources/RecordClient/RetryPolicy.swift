/// How ``HTTPRemoteDatabase`` retries what may succeed later: connection failures, `503
/// TRY_AGAIN_LATER` and `429 THROTTLED` — with exponential backoff and jitter, and never sooner
/// than the server's `retryAfter`.
///
/// A call is repeated after a connection failure only when repeating it cannot apply it twice:
/// reads, zone and subscription saves, and record modifies that carry a client change token
/// (the server answers a repeat with the first answer). Others are retried only when the server
/// said it did nothing (503, 429).
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts per call, the first included.
    public var maximumAttempts: Int
    /// The wait before the second attempt; each later one doubles it.
    public var initialDelay: Duration
    /// The longest wait between attempts (a server's `retryAfter` may ask for longer, and gets it).
    public var maximumDelay: Duration

    /// Five attempts, from 100 ms, up to 5 s apart.
    public init(maximumAttempts: Int = 5, initialDelay: Duration = .milliseconds(100), maximumDelay: Duration = .seconds(5)) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// No retries: the first failure is the answer.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// The wait before attempt `attempt + 1` (attempt counts from 1): backoff with jitter in
    /// [½, 1] of the step, at least `retryAfter` seconds.
    func delay(afterAttempt attempt: Int, retryAfter: Double?) -> Duration {
        let step = initialDelay * (1 << min(attempt - 1, 20))
        let capped = min(step, maximumDelay)
        let jittered = capped * Double.random(in: 0.5...1)
        guard let retryAfter, retryAfter > 0 else { return jittered }
        return max(jittered, .milliseconds(Int64(retryAfter * 1000)))
    }
}
