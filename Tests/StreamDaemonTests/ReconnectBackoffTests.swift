import NIOCore
@testable import StreamDaemon
import Testing

/// The waits between connection attempts, with a seeded generator standing in for the system's.
@Suite struct ReconnectBackoffTests {
    /// Knuth's MMIX linear congruential generator: a fixed sequence from each seed, so the jitter can be bounded
    /// exactly and runs repeat.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    @Test func theWaitDoublesUpToTheMaximumAndJitterTakesAtMostHalf() {
        var backoff = ReconnectBackoff(policy: ReconnectPolicy(initialDelay: 0.5, maximumDelay: 6))
        var random = Seeded(state: 1)
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
            var random = Seeded(state: UInt64(seed))
            return backoff.nextDelay(using: &random)!.nanoseconds
        }
        #expect(Set(delays).count == 50)
    }

    @Test func attemptsRunOutAfterThePolicysCountAndAResetStartsAgain() {
        var backoff = ReconnectBackoff(policy: ReconnectPolicy(initialDelay: 1, maximumDelay: 8, attempts: 3))
        var random = Seeded(state: 7)
        // Three failures in a row: two waits, then the end.
        #expect((0..<2).allSatisfy { _ in backoff.nextDelay(using: &random) != nil })
        #expect(backoff.nextDelay(using: &random) == nil)
        backoff.reset()
        let again = backoff.nextDelay(using: &random).map { Double($0.nanoseconds) / 1e9 }
        #expect(again.map { $0 <= 1 && $0 >= 0.5 } == true)
    }
}
