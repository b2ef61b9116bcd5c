import NIOCore
@testable import StreamDaemon
import Testing

/// The wait before a request that needs a password is answered, driven by a clock the test moves: the policy of
/// docs/operations.md (five failures less than a minute apart, then 1 s doubling to 16 s).
@Suite struct AuthBackoffTests {
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

    static func at(_ seconds: Int64) -> NIODeadline { start + .seconds(seconds) }

    @Test func fiveFailuresAreFreeThenEachAttemptWaitsLongerUpToTheCap() {
        var backoff = AuthBackoff()
        var waits: [Int64] = []
        for second in 0..<12 {
            waits.append(backoff.delay(for: "192.0.2.1", at: Self.at(Int64(second))).nanoseconds / 1_000_000_000)
            backoff.recordFailure(of: "192.0.2.1", at: Self.at(Int64(second)))
        }
        #expect(waits == [0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 16, 16])
        #expect(backoff.delay(for: "192.0.2.2", at: Self.at(12)) == .zero, "another address waits for nothing")
    }

    @Test func aMinuteWithoutAFailureOrASuccessStartsClean() {
        var backoff = AuthBackoff()
        for second in 0..<6 { backoff.recordFailure(of: "192.0.2.1", at: Self.at(Int64(second))) }
        #expect(backoff.delay(for: "192.0.2.1", at: Self.at(30)) == .seconds(2))
        #expect(backoff.delay(for: "192.0.2.1", at: Self.at(65)) == .zero)
        // Failures more than a minute apart never add up.
        for minute in 0..<10 { backoff.recordFailure(of: "192.0.2.3", at: Self.at(Int64(minute) * 61)) }
        #expect(backoff.delay(for: "192.0.2.3", at: Self.at(610)) == .zero)

        for second in 0..<8 { backoff.recordFailure(of: "192.0.2.1", at: Self.at(100 + Int64(second))) }
        backoff.recordSuccess(of: "192.0.2.1")
        #expect(backoff.delay(for: "192.0.2.1", at: Self.at(108)) == .zero)
    }

    @Test func theTableKeepsAtMostItsCapacityForgettingTheOldestFirst() {
        var backoff = AuthBackoff(policy: .init(threshold: 1, capacity: 3))
        for (second, address) in ["a", "b", "c", "d"].enumerated() {
            backoff.recordFailure(of: address, at: Self.at(Int64(second)))
        }
        #expect(backoff.count == 3)
        #expect(backoff.delay(for: "a", at: Self.at(4)) == .zero, "the oldest was forgotten")
        #expect(["b", "c", "d"].allSatisfy { backoff.delay(for: $0, at: Self.at(4)) == .seconds(1) })
        // A failure of a remembered address makes no room: nothing else is forgotten.
        backoff.recordFailure(of: "b", at: Self.at(5))
        #expect(["b", "c", "d"].allSatisfy { backoff.delay(for: $0, at: Self.at(5)) > .zero })
        // Expired addresses go first, however recent the others.
        backoff.recordFailure(of: "e", at: Self.at(64))
        #expect(backoff.count == 2)
        #expect(backoff.delay(for: "e", at: Self.at(64)) == .seconds(1))
    }

    @Test func aHundredThousandFailuresStillWaitTheCap() {
        var backoff = AuthBackoff()
        for _ in 0..<100_000 { backoff.recordFailure(of: "192.0.2.1", at: Self.at(0)) }
        #expect(backoff.delay(for: "192.0.2.1", at: Self.at(0)) == .seconds(16))
    }
}
