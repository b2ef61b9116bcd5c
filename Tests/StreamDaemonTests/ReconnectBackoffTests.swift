import NIOCore
@testable import StreamDaemon
import Testing

/// The waits between connection attempts, with a seeded generator standing in for the system's.
@Suite struct ReconnectBackoffTests {
    /// A fixed sequence of random numbers, so the jitter can be bounded exactly.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func theWaitDoublesUpToTheMaximumAndJitterTakesAtMostHalf() {
        var backoff = ReconnectBackoff(policy: ReconnectPolicy(initialDelay: 0.5, maximumDelay: 6))
        var random = SplitMix(state: 1)
        // Without jitter: 0.5, 1, 2, 4, then 6 for ever.
        let full = [0.5, 1, 2, 4, 6, 6, 6, 6, 6, 6]
        for limit in full {
            let delay = Double(backoff.nextDelay(using: &random)!.nanoseconds) / 1e9
            #expect(delay <= limit && delay >= limit / 2, "\(delay) for a full wait of \(limit)")
        }
    }

    @Test func jitterSpreadsClientsApart() {
        let delays = (1...50).map { seed in
            var backoff = ReconnectBackoff(policy: ReconnectPolicy(initialDelay: 1, maximumDelay: 1))
            var random = SplitMix(state: UInt64(seed))
            return backoff.nextDelay(using: &random)!.nanoseconds
        }
        #expect(Set(delays).count == 50)
    }

    @Test func attemptsRunOutAfterThePolicysCountAndAResetStartsAgain() {
        var backoff = ReconnectBackoff(policy: ReconnectPolicy(initialDelay: 1, maximumDelay: 8, attempts: 3))
        var random = SplitMix(state: 7)
        #expect((0..<3).allSatisfy { _ in backoff.nextDelay(using: &random) != nil })
        #expect(backoff.nextDelay(using: &random) == nil)
        backoff.reset()
        let again = backoff.nextDelay(using: &random).map { Double($0.nanoseconds) / 1e9 }
        #expect(again.map { $0 <= 1 && $0 >= 0.5 } == true)
    }
}
