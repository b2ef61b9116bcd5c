import NIOCore

/// The waits between connection attempts: doubling from the initial delay to the maximum with each failure in a
/// row, each cut by a random part of up to half so that many clients of one server spread out.
struct ReconnectBackoff {
    let policy: ReconnectPolicy
    /// Failed attempts in a row: since the start, or since the last `reset()`.
    private(set) var failures = 0

    init(policy: ReconnectPolicy) {
        self.policy = policy
    }

    /// How long to wait after another failure, or nil when the policy's attempts are used up.
    mutating func nextDelay<Generator: RandomNumberGenerator>(using generator: inout Generator) -> TimeAmount? {
        failures += 1
        if let attempts = policy.attempts, failures >= attempts { return nil }
        let full = min(policy.maximumDelay, policy.initialDelay * Double(1 << min(failures - 1, 30)))
        let seconds = full * Double.random(in: 0.5...1, using: &generator)
        return .nanoseconds(Int64(seconds * 1e9))
    }

    mutating func nextDelay() -> TimeAmount? {
        var generator = SystemRandomNumberGenerator()
        return nextDelay(using: &generator)
    }

    /// A connection worked (an HTTP source's brought audio, an output's lasted): the next failure starts from the
    /// initial delay.
    mutating func reset() {
        failures = 0
    }
}
