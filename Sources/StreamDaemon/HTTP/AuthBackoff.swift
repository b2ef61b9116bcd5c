import NIOCore

/// How long the HTTP server waits before it answers a request that needs a password, by the address it came from:
/// not at all, until an address has failed `threshold` times with each failure less than `window` after the one
/// before; then `firstDelay`, doubling with each further failure up to `maximumDelay`. An address that goes a
/// `window` without a failure, or that authenticates, starts clean.
///
/// Every request of an address in back-off waits, whether its password is right or wrong, so that the time of the
/// answer tells nothing the answer does not. At most `capacity` addresses are remembered: when a new one fails with
/// the table full, the one whose last failure is oldest is forgotten. A value type, driven by the clock it is
/// given; the server keeps it behind a lock.
struct AuthBackoff {
    struct Policy: Sendable {
        var threshold = 5
        var window = TimeAmount.seconds(60)
        var firstDelay = TimeAmount.seconds(1)
        var maximumDelay = TimeAmount.seconds(16)
        var capacity = 4096
    }

    /// An address's failures in a row and when the last one was.
    private struct Record {
        var failures: Int
        var last: NIODeadline
    }

    let policy: Policy
    private var records: [String: Record] = [:]

    init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Addresses remembered now.
    var count: Int { records.count }

    /// How long a request from `address` waits at `now` before it is answered: zero unless the address is in
    /// back-off.
    func delay(for address: String, at now: NIODeadline) -> TimeAmount {
        guard let record = current(address, at: now), record.failures >= policy.threshold else { return .zero }
        var delay = policy.firstDelay
        // Doubled one step at a time, so that no count of failures can overflow it.
        for _ in 0..<min(record.failures - policy.threshold, 62) where delay < policy.maximumDelay { delay = delay * 2 }
        return min(policy.maximumDelay, delay)
    }

    /// A request from `address` failed to authenticate at `now`.
    mutating func recordFailure(of address: String, at now: NIODeadline) {
        let failures = (current(address, at: now)?.failures ?? 0) + 1
        if records[address] == nil, records.count >= policy.capacity { forgetOldest(at: now) }
        records[address] = Record(failures: failures, last: now)
    }

    /// A request from `address` authenticated: its failures are forgiven.
    mutating func recordSuccess(of address: String) {
        records[address] = nil
    }

    /// The record of `address`, unless its last failure is a window old.
    private func current(_ address: String, at now: NIODeadline) -> Record? {
        records[address].flatMap { now - $0.last < policy.window ? $0 : nil }
    }

    /// Forgets every address whose failures have expired, or else the one whose last failure is oldest.
    private mutating func forgetOldest(at now: NIODeadline) {
        records = records.filter { now - $0.value.last < policy.window }
        guard records.count >= policy.capacity, let oldest = records.min(by: { $0.value.last < $1.value.last })
        else { return }
        records[oldest.key] = nil
    }
}
