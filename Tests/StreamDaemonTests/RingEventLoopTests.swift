import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Testing
@testable import StreamDaemon

/// The event loop the HLS lane runs on keeps `EventLoop`'s contract: tasks from any thread run on its own thread,
/// in order; timers fire at their deadline, in deadline order, unless cancelled; it stops when told.
@Suite struct RingEventLoopTests {
    @Test func tasksFromOtherThreadsRunOnTheLoopInOrder() throws {
        let loop = try RingEventLoop(name: "test-ring")
        defer { try? loop.syncShutdownGracefully() }
        let seen = NIOLockedValueBox<[Int]>([])
        let futures = (0..<100).map { index in
            loop.submit {
                #expect(loop.inEventLoop)
                seen.withLockedValue { $0.append(index) }
            }
        }
        try EventLoopFuture.andAllSucceed(futures, on: loop).wait()
        #expect(seen.withLockedValue { $0 } == Array(0..<100))
        #expect(!loop.inEventLoop)
    }

    @Test func timersFireInDeadlineOrderAndCancelledOnesDoNot() throws {
        let loop = try RingEventLoop(name: "test-ring")
        defer { try? loop.syncShutdownGracefully() }
        let fired = NIOLockedValueBox<[Int]>([])
        let late = loop.scheduleTask(in: .milliseconds(60)) { fired.withLockedValue { $0.append(60) } }
        let cancelled = loop.scheduleTask(in: .milliseconds(30)) { fired.withLockedValue { $0.append(30) } }
        let early = loop.scheduleTask(in: .milliseconds(10)) { fired.withLockedValue { $0.append(10) } }
        cancelled.cancel()
        _ = try early.futureResult.and(late.futureResult).wait()
        #expect(throws: EventLoopError.cancelled) { try cancelled.futureResult.wait() }
        #expect(fired.withLockedValue { $0 } == [10, 60])
    }

    /// A timer set from the loop itself, while it would otherwise sleep without limit, fires.
    @Test func aTimerSetOnTheLoopWakesIt() throws {
        let loop = try RingEventLoop(name: "test-ring")
        defer { try? loop.syncShutdownGracefully() }
        let fired = try loop.flatSubmit {
            loop.scheduleTask(in: .milliseconds(20)) { loop.inEventLoop }.futureResult
        }.wait()
        #expect(fired)
    }

    /// Once stopped, its pending timers fail as cancelled, and a second shutdown completes at once.
    @Test func stoppingCancelsTimers() throws {
        let loop = try RingEventLoop(name: "test-ring")
        let failure = NIOLockedValueBox<(any Error)?>(nil)
        loop.scheduleTask(in: .hours(1)) {}.futureResult.whenFailure { error in
            failure.withLockedValue { $0 = error }
        }
        try loop.syncShutdownGracefully()
        #expect(failure.withLockedValue { $0 } as? EventLoopError == .cancelled)
        try loop.syncShutdownGracefully()
    }
}
